import { Controller, Delete, Headers, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, type CommandResult, CurrentActor, Runtime, parseIfMatch } from '@app/kernel';
import { ChangeWebhookCommand } from '../change-webhook/change-webhook.command';
import { WEBHOOK_READ_MODELS } from '../webhook-read-models';

@ApiTags('webhooks')
@Controller()
export class DeleteWebhookController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('orgs/:organizationId/webhooks/:webhookId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook (admin): its deliveries stop; deleting it again is 204',
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    const result: CommandResult = await this.commands.execute(
      new ChangeWebhookCommand(
        actor.userId,
        { type: 'DeleteWebhook', data: { webhookId, organizationId } },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, WEBHOOK_READ_MODELS);
  }
}
