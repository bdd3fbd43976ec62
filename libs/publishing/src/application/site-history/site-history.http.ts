import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { SiteHistoryQuery } from './site-history.query';

@ApiTags('sites')
@Controller()
export class SiteHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/sites/:siteId/history')
  @ApiOperation({
    operationId: 'listSiteHistory',
    summary: "The site's public events, newest first, with the fields each changed (read role)",
  })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() params: ListQuery,
  ) {
    return this.queries.execute(new SiteHistoryQuery(organizationId, siteId, actor.userId, params));
  }
}
