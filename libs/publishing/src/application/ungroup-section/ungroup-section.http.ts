import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

@ApiTags('sites')
@Controller()
export class UngroupSectionController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Delete('orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'removeSectionFromGroup',
    summary: 'Take a section out of a group; it stays on the site, right after the group (admin)',
  })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Param('siteSectionId') sectionId: string,
  ): Promise<void> {
    await this.endpoints.change(actor, {
      type: 'UngroupSection',
      data: { siteId, organizationId, groupId, sectionId },
    });
  }
}
