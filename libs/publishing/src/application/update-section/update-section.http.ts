import { Body, Controller, Param, Patch, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { checkCondition } from '../condition';
import { SiteEndpoints } from '../site-endpoints';
import { UpdateSectionRequest } from './update-section.request';

@ApiTags('sites')
@Controller()
export class UpdateSectionController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Patch('orgs/:organizationId/sites/:siteId/sections/:siteSectionId')
  @ApiOperation({ operationId: 'updateSiteSection', summary: 'Change a section (admin)' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Body() body: UpdateSectionRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const condition = typeof body.condition === 'string' ? checkCondition('condition', body.condition) : body.condition;
    await this.endpoints.change(actor, {
      type: 'UpdateSection',
      data: {
        siteId,
        organizationId,
        sectionId,
        changes: { title: body.title, path: body.path, condition, icon: body.icon, description: body.description },
        defaultSiteSpace: body.defaultSiteSpace,
      },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'section', id: sectionId }, reply);
  }
}
