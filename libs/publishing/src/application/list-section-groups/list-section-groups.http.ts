import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

@ApiTags('sites')
@Controller()
export class ListSectionGroupsController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Get('orgs/:organizationId/sites/:siteId/section-groups')
  @ApiOperation({ operationId: 'listSiteSectionGroups', summary: "A site's section groups, in order (read role)" })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() list: ListQuery,
  ) {
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'groups', list });
  }
}
