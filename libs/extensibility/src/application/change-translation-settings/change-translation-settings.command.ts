import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  metadataFor,
  type IfMatch,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import {
  type CreateTranslationSettings,
  type DeleteTranslationSettings,
  type ReplaceTranslationSettings,
  type TranslationSettingsCommand,
  translationSettingsDecider,
  translationSettingsStream,
} from '../../domain';

export type TranslationSettingsChange =
  | Omit<CreateTranslationSettings, 'metadata'>
  | Omit<ReplaceTranslationSettings, 'metadata'>
  | Omit<DeleteTranslationSettings, 'metadata'>;

/**
 * Every change to translation settings: the caller must be an admin of the organization (404 for a stranger, 403
 * for a member below admin); the decider answers 404 for settings of another organization or that never
 * existed. `If-Match` is
 * honoured on the settings' own stream.
 */
export class ChangeTranslationSettingsCommand extends Command<CommandResult> {
  constructor(
    readonly userId: string,
    readonly change: TranslationSettingsChange,
    readonly correlationId: string | undefined,
    readonly ifMatch?: IfMatch,
  ) {
    super();
  }
}

@CommandHandler(ChangeTranslationSettingsCommand)
export class ChangeTranslationSettingsHandler implements ICommandHandler<ChangeTranslationSettingsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ userId, change, correlationId, ifMatch }: ChangeTranslationSettingsCommand): Promise<CommandResult> {
    const { organizationId, translationSettingsId } = change.data;
    await this.organizations.requireRole(organizationId, userId, 'admin', 'change its translation settings');
    const result = await handleCommand(
      this.events,
      translationSettingsDecider,
      translationSettingsStream(translationSettingsId),
      { ...change, metadata: metadataFor(this.clock, userId, { correlationId }) } as TranslationSettingsCommand,
      ifMatch !== undefined ? { ifMatch } : {},
    );
    return { position: result.position, revision: result.revision };
  }
}
