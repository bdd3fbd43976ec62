import { Body, Controller, Param, Patch, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';
import { UpdateSectionGroupRequest } from './update-section-group.request';

@ApiTags('sites')
@Controller()
export class UpdateSectionGroupController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Patch('orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId')
  @ApiOperation({ operationId: 'updateSiteSectionGroup', summary: 'Change a section group (admin)' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: UpdateSectionGroupRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.change(actor, {
      type: 'UpdateSectionGroup',
      data: { siteId, organizationId, groupId, changes: { title: body.title, icon: body.icon } },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'group', id: groupId }, reply);
  }
}
