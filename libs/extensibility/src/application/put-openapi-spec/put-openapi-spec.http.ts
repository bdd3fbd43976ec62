import { Body, Controller, Headers, Param, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import {
  ChangeOpenAPISpecCommand,
  type OpenAPISpecChangeResult,
} from '../change-openapi-spec/change-openapi-spec.command';
import { PutOpenAPISpecRequest } from '../create-openapi-spec/create-openapi-spec.request';
import { GetOpenAPISpecQuery, type OpenAPISpecView } from '../get-openapi-spec/get-openapi-spec.query';
import { OPENAPI_READ_MODELS } from '../openapi-read-models';

@ApiTags('openapi')
@Controller()
export class PutOpenAPISpecController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Put('orgs/:organizationId/openapi/:specSlug')
  @ApiOperation({
    operationId: 'createOrUpdateOpenAPISpecBySlug',
    summary: 'Give an OpenAPI spec a new source, creating it when the slug is free (admin)',
  })
  @ApiResponse({ status: 200, description: 'The spec existed and was given the new source' })
  @ApiResponse({ status: 201, description: 'The spec was created' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async put(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Body() body: PutOpenAPISpecRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result: OpenAPISpecChangeResult = await this.commands.execute(
      new ChangeOpenAPISpecCommand(
        actor.userId,
        { type: 'SetOpenAPISpecSource', organizationId, slug, source: body.source },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, OPENAPI_READ_MODELS);
    const view: OpenAPISpecView = await this.queries.execute(
      new GetOpenAPISpecQuery(organizationId, slug, actor.userId),
    );
    void reply.header('etag', etagOf(view.version));
    if (result.created) {
      void reply.status(201);
      void reply.header('location', view.body.urls.location);
    }
    return view.body;
  }
}
