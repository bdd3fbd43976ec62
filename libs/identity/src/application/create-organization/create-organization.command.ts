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
  loadState,
  metadataFor,
  newId,
} from '@app/kernel';
import { organizationStream, userStream } from '../../domain';
import { organizations, users } from '../deciders';

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
  await requireUser(store, userId);
  const organizationId = newId();
  const result = await handleCommand(store, organizations, organizationStream(organizationId), {
    type: 'CreateOrganization',
    data: {
      organizationId,
      title: organization.title,
      createdBy: { userId },
      ...(organization.type ? { type: organization.type } : {}),
      ...(organization.emailDomains ? { emailDomains: organization.emailDomains } : {}),
    },
    metadata: metadataFor(clock, userId, { correlationId }),
  });
  if (organization.useCase) {
    const updated = await handleCommand(store, organizations, organizationStream(organizationId), {
      type: 'UpdateOrganization',
      data: { organizationId, changes: { useCase: organization.useCase } },
      metadata: metadataFor(clock, userId, { correlationId }),
    });
    return { organizationId, position: updated.position ?? result.position, revision: updated.revision };
  }
  return { organizationId, position: result.position, revision: result.revision };
}

/** Checks, on the user's own stream (the source of truth for commands), that the user exists and is not erased. */
export async function requireUser(store: EventStore, userId: string): Promise<void> {
  const { state } = await loadState(store, users, userStream(userId));
  if (state.status !== 'active') throw new NotFound(`User ${userId} not found`);
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
