import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { toPosition } from '../positions';
import { SiteEndpoints } from '../site-endpoints';
import { MoveSectionGroupRequest } from './move-section-group.request';

@ApiTags('sites')
@Controller()
export class MoveSectionGroupController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Post('orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSectionGroup', summary: 'Move a section group (admin)' })
  async move(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: MoveSectionGroupRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const position = toPosition(body?.position, (pointer) => pointer.id);
    await this.endpoints.change(actor, {
      type: 'MoveSectionGroup',
      data: { siteId, organizationId, groupId, ...(position ? { position } : {}) },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'group', id: groupId }, reply);
  }
}
