import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

@ApiTags('sites')
@Controller()
export class DeleteSiteSpaceController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Delete('orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteSiteSpaceById', summary: 'Take a space off a site; the space stays (admin)' })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
  ): Promise<void> {
    await this.endpoints.change(actor, { type: 'RemoveSiteSpace', data: { siteId, organizationId, siteSpaceId } });
  }
}
