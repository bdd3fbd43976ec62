import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

@ApiTags('sites')
@Controller()
export class DeleteSiteController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Delete('orgs/:organizationId/sites/:siteId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSiteById',
    summary: 'Delete a docs site with its sections, groups and site spaces; the spaces stay (admin)',
  })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
  ): Promise<void> {
    await this.endpoints.change(actor, { type: 'DeleteSite', data: { siteId, organizationId } });
  }
}
