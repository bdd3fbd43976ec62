import { randomBytes } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, ListQuery, OptionalField, PUBLIC_URLS, type PublicUrls, newId } from '@app/kernel';
import { SHARE_LINK_NAME_MAX } from '../../domain';
import { hashShareKey } from '../site-access';
import { SiteEndpoints } from '../site-endpoints';

export class CreateShareLinkRequest {
  @ApiProperty({ minLength: 0, maxLength: SHARE_LINK_NAME_MAX })
  @IsString()
  @Length(0, SHARE_LINK_NAME_MAX)
  name!: string;
}

export class UpdateShareLinkRequest {
  @ApiPropertyOptional({ minLength: 0, maxLength: SHARE_LINK_NAME_MAX })
  @OptionalField()
  @IsString()
  @Length(0, SHARE_LINK_NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ description: 'An inactive link opens nothing until it is active again' })
  @OptionalField()
  @IsBoolean()
  active?: boolean;
}

/**
 * Share links of a site (admin only): each holds a secret key of 192 random bits. Only its SHA-256 is recorded;
 * the key is in the creation answer (`key`) and nowhere else, ever.
 */
@ApiTags('sites')
@Controller()
export class ShareLinksController {
  constructor(
    private readonly endpoints: SiteEndpoints,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Get('orgs/:organizationId/sites/:siteId/share-links')
  @ApiOperation({ operationId: 'listSiteShareLinks', summary: "A site's share links, without their keys (admin)" })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() list: ListQuery,
  ) {
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'share-links', list });
  }

  @Post('orgs/:organizationId/sites/:siteId/share-links')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createSiteShareLink',
    summary: 'Create a share link; the answer is the only place its secret key is shown (admin)',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: CreateShareLinkRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const shareLinkId = newId();
    const key = randomBytes(24).toString('base64url');
    await this.endpoints.change(actor, {
      type: 'CreateShareLink',
      data: { siteId, organizationId, shareLinkId, name: body.name, keyHash: hashShareKey(key) },
    });
    return this.endpoints.created(
      actor,
      organizationId,
      siteId,
      { kind: 'share-link', id: shareLinkId, key },
      reply,
      `${this.urls.api}/orgs/${organizationId}/sites/${siteId}/share-links/${shareLinkId}`,
    );
  }

  @Patch('orgs/:organizationId/sites/:siteId/share-links/:shareLinkId')
  @ApiOperation({ operationId: 'updateSiteShareLinkById', summary: 'Rename, turn off or turn on a share link (admin)' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
    @Body() body: UpdateShareLinkRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.change(actor, {
      type: 'UpdateShareLink',
      data: { siteId, organizationId, shareLinkId, changes: { name: body.name, active: body.active } },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'share-link', id: shareLinkId }, reply);
  }

  @Delete('orgs/:organizationId/sites/:siteId/share-links/:shareLinkId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteSiteShareLinkById', summary: 'Revoke a share link for good (admin)' })
  async revoke(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
  ): Promise<void> {
    await this.endpoints.change(actor, { type: 'RevokeShareLink', data: { siteId, organizationId, shareLinkId } });
  }
}
