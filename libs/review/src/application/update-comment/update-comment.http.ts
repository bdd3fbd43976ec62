import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { GetCommentQuery } from '../get-comment/get-comment.query';
import { COMMENT_READ_MODELS } from '../read-models';
import { UpdateCommentCommand } from './update-comment.command';
import { UpdateCommentRequest } from './update-comment.request';

@ApiTags('comments')
@Controller()
export class UpdateCommentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Put('spaces/:spaceId/comments/:commentId')
  @ApiOperation({
    operationId: 'updateCommentInSpace',
    summary: 'Resolve or reopen a comment on a space, edit it (its author) or react to it',
  })
  inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentRequest,
  ) {
    return this.update(actor, spaceId, undefined, commentId, body);
  }

  @Put('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId')
  @ApiOperation({
    operationId: 'updateCommentInChangeRequest',
    summary: 'Resolve or reopen a comment on a change request, edit it (its author) or react to it',
  })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentRequest,
  ) {
    return this.update(actor, spaceId, changeRequestId, commentId, body);
  }

  private async update(
    actor: Actor,
    spaceId: string,
    changeRequestId: string | undefined,
    commentId: string,
    body: UpdateCommentRequest,
  ) {
    const result = await this.commands.execute(
      new UpdateCommentCommand(spaceId, changeRequestId, commentId, actor.userId, body, actor.requestId),
    );
    await this.runtime.settle(result.position, COMMENT_READ_MODELS);
    return this.queries.execute(new GetCommentQuery(spaceId, result.changeRequestId, commentId, actor.userId));
  }
}
