import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { ChangeOpenAPISpecCommand } from '../change-openapi-spec/change-openapi-spec.command';
import { GetOpenAPISpecQuery, type OpenAPISpecView } from '../get-openapi-spec/get-openapi-spec.query';
import { OPENAPI_READ_MODELS } from '../openapi-read-models';
import { CreateOpenAPISpecRequest } from './create-openapi-spec.request';

@ApiTags('openapi')
@Controller()
export class CreateOpenAPISpecController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/openapi')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createOpenAPISpec',
    summary: 'Create an OpenAPI spec from a URL or a text (admin); it is processed in the background',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateOpenAPISpecRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new ChangeOpenAPISpecCommand(
        actor.userId,
        { type: 'CreateOpenAPISpec', organizationId, slug: body.slug, source: body.source },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, OPENAPI_READ_MODELS);
    const view: OpenAPISpecView = await this.queries.execute(
      new GetOpenAPISpecQuery(organizationId, body.slug, actor.userId),
    );
    void reply.header('etag', etagOf(view.version));
    void reply.header('location', view.body.urls.location);
    return view.body;
  }
}
