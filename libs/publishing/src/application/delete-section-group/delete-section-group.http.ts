import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

@ApiTags('sites')
@Controller()
export class DeleteSectionGroupController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Delete('orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSiteSectionGroup',
    summary: 'Delete a section group; its sections go back to the top level where it was (admin)',
  })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
  ): Promise<void> {
    await this.endpoints.change(actor, { type: 'RemoveSectionGroup', data: { siteId, organizationId, groupId } });
  }
}
