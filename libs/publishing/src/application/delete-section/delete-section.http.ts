import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

@ApiTags('sites')
@Controller()
export class DeleteSectionController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Delete('orgs/:organizationId/sites/:siteId/sections/:siteSectionId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteSiteSection', summary: 'Delete a section with its site spaces (admin)' })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
  ): Promise<void> {
    await this.endpoints.change(actor, { type: 'RemoveSection', data: { siteId, organizationId, sectionId } });
  }
}
