import { Body, Controller, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { GetIntegrationQuery, type IntegrationView } from '../get-integration/get-integration.query';
import { INTEGRATION_READ_MODELS } from '../integration-read-models';
import { IMAGE_MAX_BYTES } from './integration-images';
import { PublishIntegrationCommand } from './publish-integration.command';
import { PublishIntegrationRequest } from './publish-integration.request';

/**
 * Room for four images of 1 MB in base64 and a script: this route reads bodies up to 8 MB whatever
 * BODY_LIMIT_BYTES says for the others (see `bodyLimit` in the app's route hook).
 */
export const PUBLISH_BODY_LIMIT = 8 * IMAGE_MAX_BYTES;

@ApiTags('integrations')
@Controller()
export class PublishIntegrationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('integrations/:integrationName')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: PUBLISH_BODY_LIMIT })
  @ApiOperation({
    operationId: 'publishIntegration',
    summary: 'Publish an integration, or a new version of it (admin of the publishing organization)',
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the version the publication follows' })
  async publish(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Body() body: PublishIntegrationRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new PublishIntegrationCommand(actor.userId, name, body, actor.requestId, parseIfMatch(ifMatch)),
    );
    await this.runtime.settle(result.position, INTEGRATION_READ_MODELS);
    const view: IntegrationView = await this.queries.execute(new GetIntegrationQuery(name, actor.userId));
    void reply.header('etag', etagOf(view.revision));
    return view.body;
  }
}
