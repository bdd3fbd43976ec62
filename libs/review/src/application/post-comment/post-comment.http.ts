import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { GetCommentQuery } from '../get-comment/get-comment.query';
import { COMMENT_READ_MODELS } from '../read-models';
import { PostCommentCommand } from './post-comment.command';
import { PostCommentRequest } from './post-comment.request';

@ApiTags('comments')
@Controller()
export class PostCommentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/comments')
  @HttpCode(200)
  @ApiOperation({ operationId: 'postCommentInSpace', summary: 'Comment on a space (comment role)' })
  inSpace(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Body() body: PostCommentRequest) {
    return this.post(actor, spaceId, undefined, body);
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/comments')
  @HttpCode(200)
  @ApiOperation({ operationId: 'postCommentInChangeRequest', summary: 'Comment on a change request (comment role)' })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: PostCommentRequest,
  ) {
    return this.post(actor, spaceId, changeRequestId, body);
  }

  private async post(actor: Actor, spaceId: string, changeRequestId: string | undefined, body: PostCommentRequest) {
    const result = await this.commands.execute(
      new PostCommentCommand(spaceId, changeRequestId, actor.userId, body, actor.requestId),
    );
    await this.runtime.settle(result.position, COMMENT_READ_MODELS);
    return this.queries.execute(new GetCommentQuery(spaceId, result.changeRequestId, result.commentId, actor.userId));
  }
}
