import { Body, Controller, Param, Patch, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor } from '@app/kernel';
import { checkCondition } from '../condition';
import { SiteEndpoints } from '../site-endpoints';
import { UpdateSiteSpaceRequest } from './update-site-space.request';

@ApiTags('sites')
@Controller()
export class UpdateSiteSpaceController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Patch('orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId')
  @ApiOperation({ operationId: 'updateSiteSpaceById', summary: "Change a site space's path or condition (admin)" })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: UpdateSiteSpaceRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const condition = typeof body.condition === 'string' ? checkCondition('condition', body.condition) : body.condition;
    await this.endpoints.change(actor, {
      type: 'UpdateSiteSpace',
      data: { siteId, organizationId, siteSpaceId, changes: { path: body.path, condition } },
    });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'site-space', id: siteSpaceId }, reply);
  }
}
