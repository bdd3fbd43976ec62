import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls, newId } from '@app/kernel';
import { Inject } from '@nestjs/common';
import { ContentAccess, slugify } from '@app/content';
import { SiteEndpoints } from '../site-endpoints';
import { spaceForSite } from '../site-spaces';
import { AddSiteSpaceRequest } from './add-site-space.request';

@ApiTags('sites')
@Controller()
export class AddSiteSpaceController {
  constructor(
    private readonly endpoints: SiteEndpoints,
    private readonly content: ContentAccess,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('orgs/:organizationId/sites/:siteId/site-spaces')
  @HttpCode(201)
  @ApiOperation({ operationId: 'addSpaceToSite', summary: 'Publish a space on a site (admin, and read on the space)' })
  async add(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddSiteSpaceRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.requireAdmin(actor, organizationId);
    const space = await spaceForSite(this.content, organizationId, body.spaceId, actor.userId, 'spaceId');
    const siteSpaceId = newId();
    await this.endpoints.change(actor, {
      type: 'AddSiteSpace',
      data: {
        siteId,
        organizationId,
        siteSpaceId,
        spaceId: space.id,
        path: slugify(space.title),
        ...(body.sectionId !== undefined ? { sectionId: body.sectionId } : {}),
      },
    });
    return this.endpoints.created(
      actor,
      organizationId,
      siteId,
      { kind: 'site-space', id: siteSpaceId },
      reply,
      `${this.urls.api}/orgs/${organizationId}/sites/${siteId}/site-spaces/${siteSpaceId}`,
    );
  }
}
