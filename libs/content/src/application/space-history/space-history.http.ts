import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { SpaceHistoryQuery } from './space-history.query';

@ApiTags('spaces')
@Controller()
export class SpaceHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/history')
  @ApiOperation({
    operationId: 'listSpaceHistory',
    summary: "The space's public events, newest first, with the fields each changed (read access)",
  })
  list(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() params: ListQuery) {
    return this.queries.execute(new SpaceHistoryQuery(spaceId, actor.userId, params));
  }
}
