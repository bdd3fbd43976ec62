import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls, newId } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';
import { AddSectionGroupRequest } from './add-section-group.request';

@ApiTags('sites')
@Controller()
export class AddSectionGroupController {
  constructor(
    private readonly endpoints: SiteEndpoints,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('orgs/:organizationId/sites/:siteId/section-groups')
  @HttpCode(201)
  @ApiOperation({ operationId: 'addSiteSectionGroup', summary: 'Add a section group at the end of the site (admin)' })
  async add(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddSectionGroupRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const groupId = newId();
    await this.endpoints.change(actor, {
      type: 'AddSectionGroup',
      data: {
        siteId,
        organizationId,
        groupId,
        title: body.title,
        ...(body.icon !== undefined ? { icon: body.icon } : {}),
        sectionIds: body.sections ?? [],
      },
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
