import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, type CommandResult, CurrentActor, Runtime } from '@app/kernel';
import { ChangeWebhookCommand } from '../change-webhook/change-webhook.command';
import { WEBHOOK_READ_MODELS } from '../webhook-read-models';
import { RedeliverRequest } from './redeliver.request';

@ApiTags('webhooks')
@Controller()
export class RedeliverController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/webhooks/:webhookId/redeliver')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'redeliverWebhook',
    summary: 'Send again, in order, every event after a position (admin)',
  })
  async redeliver(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Body() body: RedeliverRequest,
  ) {
    const result: CommandResult = await this.commands.execute(
      new ChangeWebhookCommand(
        actor.userId,
        { type: 'RequestWebhookRedelivery', data: { webhookId, organizationId, after: body.after } },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, WEBHOOK_READ_MODELS);
    return { object: 'webhook-redelivery' as const, webhookId, after: body.after };
  }
}
