import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { toPosition } from '../positions';
import { SiteEndpoints } from '../site-endpoints';
import { MoveSiteSpaceRequest } from './move-site-space.request';

@ApiTags('sites')
@Controller()
export class MoveSiteSpaceController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Post('orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSpace', summary: 'Move a site space within its section (admin)' })
  async move(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: MoveSiteSpaceRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const position = toPosition(body?.position, (pointer) => pointer.siteSpace);
    await this.endpoints.change(actor, {
      type: 'MoveSiteSpace',
      data: { siteId, organizationId, siteSpaceId, ...(position ? { position } : {}) },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'site-space', id: siteSpaceId }, reply);
  }
}
