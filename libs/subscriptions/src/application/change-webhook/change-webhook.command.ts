import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  type IfMatch,
  PUBLIC_EVENT_MAPPERS,
  type PublicEventMapper,
  ValidationFailed,
  handleCommand,
  metadataFor,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import {
  type CreateWebhook,
  type DeleteWebhook,
  type RequestWebhookRedelivery,
  type UpdateWebhook,
  type WebhookCommand,
  checkWebhookUrl,
  webhookDecider,
  webhookStream,
} from '../../domain/webhook.decider';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';

export type WebhookChange =
  | Omit<CreateWebhook, 'metadata'>
  | Omit<UpdateWebhook, 'metadata'>
  | Omit<DeleteWebhook, 'metadata'>
  | Omit<RequestWebhookRedelivery, 'metadata'>;

/**
 * Every change to a webhook: the caller must administer the organization (404 for a stranger, 403 for a member
 * below admin); the decider answers 404 for a webhook of another organization. Types must be in the catalogue of
 * public events. An http address is accepted only for a host of FETCH_ALLOWLIST, as the fetcher would refuse it
 * otherwise (loopback and private addresses).
 */
export class ChangeWebhookCommand extends Command<CommandResult> {
  constructor(
    readonly userId: string,
    readonly change: WebhookChange,
    readonly correlationId: string | undefined,
    readonly ifMatch?: IfMatch,
  ) {
    super();
  }
}

@CommandHandler(ChangeWebhookCommand)
export class ChangeWebhookHandler implements ICommandHandler<ChangeWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(PUBLIC_EVENT_MAPPERS) private readonly mappers: readonly PublicEventMapper[],
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ userId, change, correlationId, ifMatch }: ChangeWebhookCommand): Promise<CommandResult> {
    const { organizationId, webhookId } = change.data;
    await this.organizations.requireRole(organizationId, userId, 'admin', 'manage its webhooks');
    if ('url' in change.data && change.data.url !== undefined) this.checkReachable(change.data.url);
    if ('types' in change.data && change.data.types !== undefined) this.checkKnown(change.data.types);
    const result = await handleCommand(
      this.events,
      webhookDecider,
      webhookStream(webhookId),
      { ...change, metadata: metadataFor(this.clock, userId, { correlationId }) } as WebhookCommand,
      ifMatch !== undefined ? { ifMatch } : {},
    );
    return { position: result.position, revision: result.revision };
  }

  /** Types must be in the catalogue of public events (GET /v1/events/schemas). */
  private checkKnown(types: readonly string[]): void {
    const known = new Set(this.mappers.flatMap((mapper) => mapper.kinds.map((kind) => kind.type)));
    const unknown = types.find((type) => !known.has(type));
    if (unknown !== undefined) {
      throw new ValidationFailed(
        `types: "${unknown.slice(0, 100)}" is not a public event type (see /v1/events/schemas)`,
      );
    }
  }

  private checkReachable(url: string): void {
    const parsed = checkWebhookUrl(url);
    if (parsed.protocol === 'https:') return;
    const port = parsed.port || '80';
    if (!this.settings.allowlist.includes(`${parsed.hostname.toLowerCase()}:${port}`)) {
      throw new ValidationFailed('url: must be an https address (http only for a host:port listed in FETCH_ALLOWLIST)');
    }
  }
}
