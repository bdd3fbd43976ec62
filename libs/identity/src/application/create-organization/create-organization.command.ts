import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  NotFound,
  handleCommand,
  metadataFor,
  newId,
} from '@app/kernel';
import { organizationDecider, organizationStream, userStream } from '../../domain';

export interface NewOrganization {
  title: string;
  emailDomains?: string[];
  type?: 'business' | 'community';
  useCase?: string;
}

export interface CreatedOrganization extends CommandResult {
  organizationId: string;
}

export class CreateOrganizationCommand extends Command<CreatedOrganization> {
  constructor(
    readonly userId: string,
    readonly organization: NewOrganization,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Creates an organization whose first admin is the creator. Shared by the API and the CLI's bootstrap. */
export async function createOrganization(
  store: EventStore,
  clock: Clock,
  userId: string,
  organization: NewOrganization,
  correlationId?: string,
): Promise<CreatedOrganization> {
  const user = await readUser(store, userId);
  const organizationId = newId();
  const result = await handleCommand(store, organizationDecider, organizationStream(organizationId), {
    type: 'CreateOrganization',
    data: {
      organizationId,
      title: organization.title,
      createdBy: { userId, email: user.email, displayName: user.displayName },
      ...(organization.type ? { type: organization.type } : {}),
      ...(organization.emailDomains ? { emailDomains: organization.emailDomains } : {}),
    },
    metadata: metadataFor(clock, userId, { correlationId }),
  });
  if (organization.useCase) {
    const updated = await handleCommand(store, organizationDecider, organizationStream(organizationId), {
      type: 'UpdateOrganization',
      data: { organizationId, changes: { useCase: organization.useCase } },
      metadata: metadataFor(clock, userId, { correlationId }),
    });
    return { organizationId, position: updated.position ?? result.position, revision: updated.revision };
  }
  return { organizationId, position: result.position, revision: result.revision };
}

/** The user's email and name, from their own stream (the event store is the source of truth for commands). */
export async function readUser(store: EventStore, userId: string): Promise<{ email: string; displayName: string }> {
  const history = await store.readStream(userStream(userId), { maxCount: 1 });
  const created = history.find((event) => event.type === 'UserCreated');
  if (!created) throw new NotFound(`User ${userId} not found`);
  return { email: String(created.data.email), displayName: String(created.data.displayName) };
}

@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ userId, organization, correlationId }: CreateOrganizationCommand): Promise<CreatedOrganization> {
    return createOrganization(this.store, this.clock, userId, organization, correlationId);
  }
}
