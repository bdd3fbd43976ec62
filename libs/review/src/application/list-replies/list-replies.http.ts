import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListRepliesParams, ListRepliesQuery } from './list-replies.query';

@ApiTags('comments')
@Controller()
export class ListRepliesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/comments/:commentId/replies')
  @ApiOperation({ operationId: 'listCommentRepliesInSpace', summary: 'The replies to a comment on a space' })
  inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Query() params: ListRepliesParams,
  ) {
    return this.queries.execute(new ListRepliesQuery(spaceId, undefined, commentId, actor.userId, params));
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies')
  @ApiOperation({
    operationId: 'listCommentRepliesInChangeRequest',
    summary: 'The replies to a comment on a change request',
  })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Query() params: ListRepliesParams,
  ) {
    return this.queries.execute(new ListRepliesQuery(spaceId, changeRequestId, commentId, actor.userId, params));
  }
}
