import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ChangeRequestHistoryQuery } from './change-request-history.query';

@ApiTags('change-requests')
@Controller()
export class ChangeRequestHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/change-requests/:changeRequestId/history')
  @ApiOperation({
    operationId: 'listChangeRequestHistory',
    summary:
      "The change request's public events, newest first, with the fields each changed (read access to its space)",
  })
  list(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: ListQuery,
  ) {
    return this.queries.execute(new ChangeRequestHistoryQuery(spaceId, changeRequestId, actor.userId, params));
  }
}
