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
import { OrganizationAccess } from '@app/identity';
import {
  type CreateCustomField,
  type CustomFieldsCommand,
  type DeleteCustomField,
  type UpdateCustomField,
  customFieldsDecider,
  customFieldsStream,
} from '../../domain';

/** A change to an organization's field definitions, as a use case writes it (the metadata is added here). */
export type CustomFieldChange =
  Omit<CreateCustomField, 'metadata'> | Omit<UpdateCustomField, 'metadata'> | Omit<DeleteCustomField, 'metadata'>;

/**
 * Creating, changing and deleting custom fields: the caller must be an admin of the organization (a stranger
 * sees 404, a member below admin 403), then the decider decides on the organization's custom-fields stream.
 */
export class ChangeCustomFieldsCommand extends Command<CommandResult> {
  constructor(
    readonly userId: string,
    readonly change: CustomFieldChange,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(ChangeCustomFieldsCommand)
export class ChangeCustomFieldsHandler implements ICommandHandler<ChangeCustomFieldsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ userId, change, correlationId }: ChangeCustomFieldsCommand): Promise<CommandResult> {
    const { organizationId } = change.data;
    await this.organizations.requireRole(organizationId, userId, 'admin', 'manage its custom fields');
    const result = await handleCommand(this.events, customFieldsDecider, customFieldsStream(organizationId), {
      ...change,
      metadata: metadataFor(this.clock, userId, { correlationId }),
    } as CustomFieldsCommand);
    return { position: result.position, revision: result.revision };
  }
}
