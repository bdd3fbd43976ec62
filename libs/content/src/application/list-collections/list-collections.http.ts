import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListCollectionsParams, ListCollectionsQuery } from './list-collections.query';

@ApiTags('collections')
@Controller()
export class ListCollectionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/collections')
  @ApiOperation({
    operationId: 'listCollectionsInOrganizationById',
    summary: 'List the collections the caller can see',
  })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: ListCollectionsParams,
  ) {
    return this.queries.execute(new ListCollectionsQuery(organizationId, actor.userId, params));
  }
}
