import { Controller, Get, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Actor, CurrentActor, KEEPS_ANSWERS } from '@app/kernel';
import { checkCustomization } from '../customization';
import { SiteEndpoints } from '../site-endpoints';

/**
 * A site's customization. The body is the whole settings object, checked against the customization schema
 * (ajv) rather than DTO classes: it is a deep tree of enumerations, colours and links that one schema states best.
 */
@ApiTags('sites')
@Controller()
export class CustomizeSiteController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Get('orgs/:organizationId/sites/:siteId/customization')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'getSiteCustomizationById', summary: "A site's customization settings (read role)" })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'customization' }, reply);
  }

  @Put('orgs/:organizationId/sites/:siteId/customization')
  @ApiOperation({ operationId: 'updateSiteCustomizationById', summary: 'Replace the customization settings (admin)' })
  @ApiBody({ schema: { type: 'object', description: 'Every required part of the settings (see GET)' } })
  async put(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.requireAdmin(actor, organizationId);
    const customization = checkCustomization(request.body);
    await this.endpoints.change(actor, { type: 'CustomizeSite', data: { siteId, organizationId, customization } });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'customization' }, reply);
  }
}
