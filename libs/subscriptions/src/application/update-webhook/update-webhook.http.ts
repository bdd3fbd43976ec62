import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, type CommandResult, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { ChangeWebhookCommand } from '../change-webhook/change-webhook.command';
import { GetWebhookQuery, type WebhookView } from '../get-webhook/get-webhook.query';
import { WEBHOOK_READ_MODELS } from '../webhook-read-models';
import { UpdateWebhookRequest } from './update-webhook.request';

@ApiTags('webhooks')
@Controller()
export class UpdateWebhookController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('orgs/:organizationId/webhooks/:webhookId')
  @ApiOperation({ operationId: 'updateWebhook', summary: 'Change a webhook (admin)' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Body() body: UpdateWebhookRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result: CommandResult = await this.commands.execute(
      new ChangeWebhookCommand(
        actor.userId,
        {
          type: 'UpdateWebhook',
          data: { webhookId, organizationId, url: body.url, types: body.types, active: body.active },
        },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, WEBHOOK_READ_MODELS);
    const view: WebhookView = await this.queries.execute(new GetWebhookQuery(organizationId, webhookId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
