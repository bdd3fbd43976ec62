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
import { emailStream, organizationStream } from '../../domain';
import { OrganizationAccess } from '../../public/organization-access';
import { requireUser } from '../create-organization/create-organization.command';
import { emailAddresses, organizations } from '../deciders';
import { PersonalData, addressSubject } from '../personal-data/sealing';
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
 * process honours it when that user is created) and listed on the organization as a pending invite. An unknown
 * address is sealed with a key of its own (`address:<key>`), destroyed with the rest if its user is ever erased.
 */
@CommandHandler(InviteMembersCommand)
export class InviteMembersHandler implements ICommandHandler<InviteMembersCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: OrganizationAccess,
    private readonly personal: PersonalData,
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
      const key = emailKey(email);
      const { state } = await loadState(this.store, emailAddresses, emailStream(key));
      if (state.status === 'claimed') {
        await requireUser(this.store, state.userId);
        const joined = await handleCommand(this.store, organizations, organizationStream(organizationId), {
          type: 'AddMember',
          data: { organizationId, userId: state.userId, role },
          metadata,
        });
        note(joined.position);
        users.push(state.userId);
        continue;
      }
      const sealed = await this.personal.seal(addressSubject(key), { email });
      const pending = await handleCommand(this.store, emailAddresses, emailStream(key), {
        type: 'RecordPendingInvite',
        data: { email: sealed.email, organizationId, role, invitedBy: callerId },
        metadata,
      });
      note(pending.position);
      const listed = await handleCommand(this.store, organizations, organizationStream(organizationId), {
        type: 'InviteMember',
        data: { organizationId, invite: key, email: sealed.email, role },
        metadata,
      });
      note(listed.position);
      invited++;
    }
    return { users, invited, position };
  }
}
