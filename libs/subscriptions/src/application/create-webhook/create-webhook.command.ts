import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type CommandResult, SECRET_BOX, type SecretBox } from '@app/kernel';
import { ChangeWebhookCommand } from '../change-webhook/change-webhook.command';
import { newWebhookSecret, secretContext } from '../webhook-signature';

/** Creates a webhook with a new signing secret, sealed before it is recorded; the secret is answered once. */
export class CreateWebhookCommand extends Command<CommandResult & { secret: string }> {
  constructor(
    readonly userId: string,
    readonly organizationId: string,
    readonly webhookId: string,
    readonly settings: { url: string; types: string[]; active: boolean },
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand> {
  constructor(
    private readonly commands: CommandBus,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
  ) {}

  async execute({ userId, organizationId, webhookId, settings, correlationId }: CreateWebhookCommand) {
    const secret = newWebhookSecret();
    const sealedSecret = this.secretBox.seal({ secret }, secretContext(webhookId));
    const result = await this.commands.execute(
      new ChangeWebhookCommand(
        userId,
        { type: 'CreateWebhook', data: { webhookId, organizationId, ...settings, sealedSecret } },
        correlationId,
      ),
    );
    return { ...result, secret };
  }
}
