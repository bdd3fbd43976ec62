import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, etagOf } from '@app/kernel';
import { GetOpenAPISpecQuery, type OpenAPISpecView } from './get-openapi-spec.query';

@ApiTags('openapi')
@Controller()
export class GetOpenAPISpecController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/openapi/:specSlug')
  @ApiOperation({
    operationId: 'getOpenAPISpecBySlug',
    summary: 'Read an OpenAPI spec and its processing state (member)',
  })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const view: OpenAPISpecView = await this.queries.execute(
      new GetOpenAPISpecQuery(organizationId, slug, actor.userId),
    );
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
