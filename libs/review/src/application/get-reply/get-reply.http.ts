import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { FormatParams } from '../comment-body';
import { GetReplyQuery } from './get-reply.query';

@ApiTags('comments')
@Controller()
export class GetReplyController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/comments/:commentId/replies/:commentReplyId')
  @ApiOperation({ operationId: 'getCommentReplyInSpace', summary: 'A reply to a comment on a space' })
  inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Query() params: FormatParams,
  ) {
    return this.queries.execute(new GetReplyQuery(spaceId, undefined, commentId, replyId, actor.userId, params.format));
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId')
  @ApiOperation({ operationId: 'getCommentReplyInChangeRequest', summary: 'A reply to a comment on a change request' })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Query() params: FormatParams,
  ) {
    return this.queries.execute(
      new GetReplyQuery(spaceId, changeRequestId, commentId, replyId, actor.userId, params.format),
    );
  }
}
