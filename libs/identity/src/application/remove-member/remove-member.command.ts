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
import { organizationStream } from '../../domain';
import { organizations } from '../deciders';
import { OrganizationAccess } from '../../public/organization-access';

export class RemoveMemberCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly callerId: string,
    readonly memberId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Admins remove members; any member may leave (remove themselves). The last admin stays (409). */
@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: OrganizationAccess,
  ) {}

  async execute({ organizationId, callerId, memberId, correlationId }: RemoveMemberCommand): Promise<CommandResult> {
    if (callerId === memberId) await this.access.requireMember(organizationId, callerId);
    else await this.access.requireRole(organizationId, callerId, 'admin', 'remove members');
    const result = await handleCommand(this.store, organizations, organizationStream(organizationId), {
      type: 'RemoveMember',
      data: { organizationId, userId: memberId },
      metadata: metadataFor(this.clock, callerId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
