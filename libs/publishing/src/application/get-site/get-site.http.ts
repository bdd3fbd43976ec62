import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, OptionalField, PointInTimeParams, pointInTime, KEEPS_ANSWERS } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

export class ShareKeyParams {
  @ApiPropertyOptional({ description: 'Secret key of a share link: lets a caller without a role read a shared site' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  shareKey?: string;
}

@ApiTags('sites')
@Controller()
export class GetSiteController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Get('orgs/:organizationId/sites/:siteId')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'getSiteById', summary: 'Get a docs site (read role)' })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() params: PointInTimeParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const at = pointInTime(params.at);
    // A past version is not something to send back in If-Match: only the current one carries an ETag.
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'site', at }, at ? undefined : reply);
  }

  @Get('orgs/:organizationId/sites/:siteId/published')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({
    operationId: 'getPublishedContentSite',
    summary: 'The complete published profile of a site: site, structure, customization (read role or share key)',
  })
  published(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() params: ShareKeyParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'published', shareKey: params.shareKey }, reply);
  }

  @Get('orgs/:organizationId/sites/:siteId/structure')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'getSiteStructure', summary: "A site's structure (read role or share key)" })
  structure(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() params: ShareKeyParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'structure', shareKey: params.shareKey }, reply);
  }
}
