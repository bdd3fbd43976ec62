import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { CollectionHistoryQuery } from './collection-history.query';

@ApiTags('collections')
@Controller()
export class CollectionHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('collections/:collectionId/history')
  @ApiOperation({
    operationId: 'listCollectionHistory',
    summary: "The collection's public events, newest first, with the fields each changed (read access)",
  })
  list(@CurrentActor() actor: Actor, @Param('collectionId') collectionId: string, @Query() params: ListQuery) {
    return this.queries.execute(new CollectionHistoryQuery(collectionId, actor.userId, params));
  }
}
