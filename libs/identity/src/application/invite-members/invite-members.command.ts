import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  type GlobalPosition,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { emailAddressDecider, emailStream, organizationDecider, organizationStream } from '../../domain';
import { OrganizationAccess } from '../../public/organization-access';
import { readUser } from '../create-organization/create-organization.command';
import { emailKey, normaliseEmail } from '../tokens';

export interface InviteResult {
  /** Users who had an account and joined at once. */
  users: string[];
  /** Addresses without an account, now waiting as pending invites. */
  invited: number;
  position: GlobalPosition | null;
}

export class InviteMembersCommand extends Command<InviteResult> {
  constructor(
    readonly organizationId: string,
    readonly callerId: string,
    readonly emails: string[],
    readonly role: RoleOrGuest,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * A known user joins at once; an unknown address is recorded on its email stream (where the pending-invites
 * process honours it when that user is created) and listed on the organization as a pending invite.
 */
@CommandHandler(InviteMembersCommand)
export class InviteMembersHandler implements ICommandHandler<InviteMembersCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: OrganizationAccess,
  ) {}

  async execute({
    organizationId,
    callerId,
    emails,
    role,
    correlationId,
  }: InviteMembersCommand): Promise<InviteResult> {
    await this.access.requireRole(organizationId, callerId, 'admin', 'invite members');
    const users: string[] = [];
    let invited = 0;
    let position: GlobalPosition | null = null;
    const note = (at: GlobalPosition | null) => {
      if (at !== null && (position === null || at > position)) position = at;
    };
    for (const email of [...new Set(emails.map(normaliseEmail))]) {
      const metadata = metadataFor(this.clock, callerId, { correlationId });
      const { state } = await loadState(this.store, emailAddressDecider, emailStream(emailKey(email)));
      if (state.status === 'claimed') {
        const user = await readUser(this.store, state.userId);
        const joined = await handleCommand(this.store, organizationDecider, organizationStream(organizationId), {
          type: 'AddMember',
          data: { organizationId, userId: state.userId, email: user.email, displayName: user.displayName, role },
          metadata,
        });
        note(joined.position);
        users.push(state.userId);
        continue;
      }
      const pending = await handleCommand(this.store, emailAddressDecider, emailStream(emailKey(email)), {
        type: 'RecordPendingInvite',
        data: { email, organizationId, role, invitedBy: callerId },
        metadata,
      });
      note(pending.position);
      const listed = await handleCommand(this.store, organizationDecider, organizationStream(organizationId), {
        type: 'InviteMember',
        data: { organizationId, email, role },
        metadata,
      });
      note(listed.position);
      invited++;
    }
    return { users, invited, position };
  }
}
