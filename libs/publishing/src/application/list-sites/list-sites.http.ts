import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListSitesParams, ListSitesQuery } from './list-sites.query';

@ApiTags('sites')
@Controller()
export class ListSitesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/sites')
  @ApiOperation({ operationId: 'listSites', summary: "List an organization's docs sites (read role)" })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: ListSitesParams,
  ) {
    return this.queries.execute(new ListSitesQuery(organizationId, actor.userId, params));
  }
}
