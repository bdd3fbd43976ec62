import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListCommentsParams, ListCommentsQuery } from './list-comments.query';

@ApiTags('comments')
@Controller()
export class ListCommentsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/comments')
  @ApiOperation({ operationId: 'listCommentsInSpace', summary: 'The comments on a space' })
  inSpace(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() params: ListCommentsParams) {
    return this.queries.execute(new ListCommentsQuery(spaceId, undefined, actor.userId, params));
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId/comments')
  @ApiOperation({ operationId: 'listCommentsInChangeRequest', summary: 'The comments on a change request' })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: ListCommentsParams,
  ) {
    return this.queries.execute(new ListCommentsQuery(spaceId, changeRequestId, actor.userId, params));
  }
}
