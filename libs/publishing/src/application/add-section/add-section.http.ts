import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls, newId } from '@app/kernel';
import { ContentAccess, slugify } from '@app/content';
import { SECTION_TITLE } from '../../domain';
import { SiteEndpoints } from '../site-endpoints';
import { spaceForSite } from '../site-spaces';
import { AddSectionRequest } from './add-section.request';

/** A section's title when none is given: its space's, cut to what a new section takes, or a plain word. */
function titleFrom(spaceTitle: string): string {
  const title = [...spaceTitle.trim()].slice(0, SECTION_TITLE.createMax).join('');
  return [...title].length >= SECTION_TITLE.min ? title : 'Section';
}

@ApiTags('sites')
@Controller()
export class AddSectionController {
  constructor(
    private readonly endpoints: SiteEndpoints,
    private readonly content: ContentAccess,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('orgs/:organizationId/sites/:siteId/sections')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'addSiteSection',
    summary: 'Add a section with a first space; the first section takes in the site spaces at the root (admin)',
  })
  async add(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddSectionRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.requireAdmin(actor, organizationId);
    const space = await spaceForSite(this.content, organizationId, body.spaceId, actor.userId, 'spaceId');
    const sectionId = newId();
    const title = body.title ?? titleFrom(space.title);
    await this.endpoints.change(actor, {
      type: 'AddSection',
      data: {
        siteId,
        organizationId,
        sectionId,
        title,
        path: slugify(title),
        ...(body.icon !== undefined ? { icon: body.icon } : {}),
        first: { siteSpaceId: newId(), spaceId: space.id, path: slugify(space.title) },
      },
    });
    return this.endpoints.created(
      actor,
      organizationId,
      siteId,
      { kind: 'section', id: sectionId },
      reply,
      `${this.urls.api}/orgs/${organizationId}/sites/${siteId}/sections/${sectionId}`,
    );
  }
}
