import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';
import { GroupSectionRequest } from './group-section.request';

@ApiTags('sites')
@Controller()
export class GroupSectionController {
  constructor(
    private readonly endpoints: SiteEndpoints,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections')
  @HttpCode(201)
  @ApiOperation({ operationId: 'addSectionToGroup', summary: 'Put a section into a group, at its end (admin)' })
  async add(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: GroupSectionRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.change(actor, {
      type: 'GroupSection',
      data: { siteId, organizationId, groupId, sectionId: body.sectionId },
    });
    return this.endpoints.created(
      actor,
      organizationId,
      siteId,
      { kind: 'group', id: groupId },
      reply,
      `${this.urls.api}/orgs/${organizationId}/sites/${siteId}/section-groups/${groupId}`,
    );
  }
}
