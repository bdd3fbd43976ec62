import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { FormatParams } from '../comment-body';
import { GetReplyQuery } from '../get-reply/get-reply.query';
import { COMMENT_READ_MODELS } from '../read-models';
import { PostReplyCommand } from './post-reply.command';
import { PostReplyRequest } from './post-reply.request';

@ApiTags('comments')
@Controller()
export class PostReplyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/comments/:commentId/replies')
  @HttpCode(200)
  @ApiOperation({ operationId: 'postCommentReplyInSpace', summary: 'Reply to a comment on a space (comment role)' })
  inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Body() body: PostReplyRequest,
  ) {
    return this.post(actor, spaceId, undefined, commentId, body, {});
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'postCommentReplyInChangeRequest',
    summary: 'Reply to a comment on a change request (comment role)',
  })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Body() body: PostReplyRequest,
    @Query() params: FormatParams,
  ) {
    return this.post(actor, spaceId, changeRequestId, commentId, body, params);
  }

  private async post(
    actor: Actor,
    spaceId: string,
    changeRequestId: string | undefined,
    commentId: string,
    body: PostReplyRequest,
    params: FormatParams,
  ) {
    const result = await this.commands.execute(
      new PostReplyCommand(spaceId, changeRequestId, commentId, actor.userId, body.body, actor.requestId),
    );
    await this.runtime.settle(result.position, COMMENT_READ_MODELS);
    return this.queries.execute(
      new GetReplyQuery(spaceId, result.changeRequestId, commentId, result.replyId, actor.userId, params.format),
    );
  }
}
