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
} from '@app/kernel';
import { ContentAccess } from '@app/content';
import { type CustomFieldValue, customFieldsDecider, customFieldsStream } from '../../domain';

/**
 * Sets or removes a space's custom-field values: the caller needs `edit` on the space; the values are decided on
 * the custom-fields stream of the space's organization, so each is checked against its field as it is now.
 */
export class UpdateSpaceCustomFieldsCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly values: Record<string, CustomFieldValue | null>,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(UpdateSpaceCustomFieldsCommand)
export class UpdateSpaceCustomFieldsHandler implements ICommandHandler<UpdateSpaceCustomFieldsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly content: ContentAccess,
  ) {}

  async execute({ spaceId, userId, values, correlationId }: UpdateSpaceCustomFieldsCommand): Promise<CommandResult> {
    const { space } = await this.content.requireSpace(spaceId, userId, 'edit', 'change its custom fields');
    const organizationId = space.organizationId;
    const result = await handleCommand(this.events, customFieldsDecider, customFieldsStream(organizationId), {
      type: 'SetSpaceCustomFieldValues',
      data: { organizationId, spaceId, values },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
