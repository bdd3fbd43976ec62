import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, etagOf } from '@app/kernel';
import { GetWebhookQuery, type WebhookView } from './get-webhook.query';

@ApiTags('webhooks')
@Controller()
export class GetWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/webhooks/:webhookId')
  @ApiOperation({ operationId: 'getWebhook', summary: 'Read a webhook (admin)' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const view: WebhookView = await this.queries.execute(new GetWebhookQuery(organizationId, webhookId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
