import { Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

/** `published` moves only through these two operations. */
@ApiTags('sites')
@Controller()
export class PublishSiteController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Post('orgs/:organizationId/sites/:siteId/publish')
  @HttpCode(200)
  @ApiOperation({ operationId: 'publishSite', summary: 'Publish a site; it needs at least one site space (admin)' })
  async publish(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.change(actor, { type: 'PublishSite', data: { siteId, organizationId } });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'site' }, reply);
  }

  @Post('orgs/:organizationId/sites/:siteId/unpublish')
  @HttpCode(200)
  @ApiOperation({ operationId: 'unpublishSite', summary: 'Take a site offline (admin)' })
  async unpublish(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.change(actor, { type: 'UnpublishSite', data: { siteId, organizationId } });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'site' }, reply);
  }
}
