import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { toPosition } from '../positions';
import { SiteEndpoints } from '../site-endpoints';
import { MoveSectionRequest } from './move-section.request';

@ApiTags('sites')
@Controller()
export class MoveSectionController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Post('orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSection', summary: 'Move a section (admin)' })
  async move(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Body() body: MoveSectionRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const position = toPosition(body?.position, (pointer) => pointer.siteSection);
    await this.endpoints.change(actor, {
      type: 'MoveSection',
      data: { siteId, organizationId, sectionId, ...(position ? { position } : {}) },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'section', id: sectionId }, reply);
  }
}
