import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, newId } from '@app/kernel';
import { GetWebhookQuery, type WebhookView } from '../get-webhook/get-webhook.query';
import { WEBHOOK_READ_MODELS } from '../webhook-read-models';
import { CreateWebhookCommand } from './create-webhook.command';
import { CreateWebhookRequest } from './create-webhook.request';

@ApiTags('webhooks')
@Controller()
export class CreateWebhookController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/webhooks')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Create a webhook (admin); the answer alone carries its signing secret',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateWebhookRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const webhookId = newId();
    const result = await this.commands.execute(
      new CreateWebhookCommand(
        actor.userId,
        organizationId,
        webhookId,
        { url: body.url, types: body.types ?? [], active: body.active ?? true },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, WEBHOOK_READ_MODELS);
    const view: WebhookView = await this.queries.execute(new GetWebhookQuery(organizationId, webhookId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    void reply.header('location', view.body.urls.location);
    return { ...view.body, secret: result.secret };
  }
}
