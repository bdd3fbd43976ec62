import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { GetReplyQuery } from '../get-reply/get-reply.query';
import { COMMENT_READ_MODELS } from '../read-models';
import { UpdateReplyCommand } from './update-reply.command';
import { UpdateReplyRequest } from './update-reply.request';

@ApiTags('comments')
@Controller()
export class UpdateReplyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Put('spaces/:spaceId/comments/:commentId/replies/:commentReplyId')
  @ApiOperation({
    operationId: 'updateCommentReplyInSpace',
    summary: 'Edit a reply to a comment on a space (its author) or react to it',
  })
  inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Body() body: UpdateReplyRequest,
  ) {
    return this.update(actor, spaceId, undefined, commentId, replyId, body);
  }

  @Put('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId')
  @ApiOperation({
    operationId: 'updateCommentReplyInChangeRequest',
    summary: 'Edit a reply to a comment on a change request (its author) or react to it',
  })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Body() body: UpdateReplyRequest,
  ) {
    return this.update(actor, spaceId, changeRequestId, commentId, replyId, body);
  }

  private async update(
    actor: Actor,
    spaceId: string,
    changeRequestId: string | undefined,
    commentId: string,
    replyId: string,
    body: UpdateReplyRequest,
  ) {
    const result = await this.commands.execute(
      new UpdateReplyCommand(spaceId, changeRequestId, commentId, replyId, actor.userId, body, actor.requestId),
    );
    await this.runtime.settle(result.position, COMMENT_READ_MODELS);
    return this.queries.execute(new GetReplyQuery(spaceId, result.changeRequestId, commentId, replyId, actor.userId));
  }
}
