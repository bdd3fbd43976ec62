import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListCollectionSpacesQuery } from './list-collection-spaces.query';

@ApiTags('collections')
@Controller()
export class ListCollectionSpacesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('collections/:collectionId/spaces')
  @ApiOperation({ operationId: 'listSpacesInCollectionById', summary: 'List the spaces of a collection' })
  list(@CurrentActor() actor: Actor, @Param('collectionId') collectionId: string, @Query() params: ListQuery) {
    return this.queries.execute(new ListCollectionSpacesQuery(collectionId, actor.userId, params));
  }
}
