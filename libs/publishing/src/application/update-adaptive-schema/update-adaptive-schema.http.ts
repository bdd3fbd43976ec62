import { Body, Controller, Get, Param, Put, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, KEEPS_ANSWERS } from '@app/kernel';
import { checkAdaptiveSchema } from '../adaptive-schema';
import { SiteEndpoints } from '../site-endpoints';

export class UpdateAdaptiveSchemaRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "A draft-07 JSON Schema of the visitors' claims",
  })
  @IsObject()
  jsonSchema!: Record<string, unknown>;
}

@ApiTags('sites')
@Controller()
export class AdaptiveSchemaController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Get('orgs/:organizationId/sites/:siteId/adaptive-schema')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'getSiteAdaptiveSchema', summary: "The claims a site's visitors carry (read role)" })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'adaptive-schema' }, reply);
  }

  @Put('orgs/:organizationId/sites/:siteId/adaptive-schema')
  @ApiOperation({ operationId: 'updateSiteAdaptiveSchema', summary: 'Replace the adaptive-content schema (admin)' })
  async put(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: UpdateAdaptiveSchemaRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.requireAdmin(actor, organizationId);
    const jsonSchema = checkAdaptiveSchema(body.jsonSchema);
    await this.endpoints.change(actor, { type: 'SetAdaptiveSchema', data: { siteId, organizationId, jsonSchema } });
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'adaptive-schema' }, reply);
  }
}
