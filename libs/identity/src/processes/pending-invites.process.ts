import { type DomainEvent, type RoleOrGuest } from '@app/kernel/domain';
import { type ProcessDefinition, type RecordedEvent } from '@app/kernel';
import { upcast } from '../application/personal-data/upcaster';
import { type UserCreated } from '../domain';

type InviteNoted = DomainEvent<'InviteNoted', { organizationId: string; role: RoleOrGuest }>;
/**
 * `emailKey` is the key of the address (the process's instance). Before personal data was sealed this event also
 * copied the user's `email` and `displayName` in clear; it no longer carries either.
 */
type InvitesHonoured = DomainEvent<
  'InvitesHonoured',
  { userId: string; emailKey?: string; invites: { organizationId: string; role: RoleOrGuest }[] }
>;
/** The address's user was erased and the address released: invitations sent from now on wait for a new user. */
type InvitesReset = DomainEvent<'InvitesReset', { userId: string }>;
type PendingInvitesEvent = InviteNoted | InvitesHonoured | InvitesReset;

interface PendingInvitesState {
  pending: Record<string, RoleOrGuest>;
  honoured: boolean;
}

const EMAIL_STREAM_PREFIX = 'email-';

const addressOf = (event: RecordedEvent) =>
  event.streamId.startsWith(EMAIL_STREAM_PREFIX) ? event.streamId.slice(EMAIL_STREAM_PREFIX.length) : null;

/**
 * An invitation sent to an address without an account waits on that address's stream; when a user with that
 * address is created, this process adds them to every organization that invited them. When that user is erased
 * (their address released), the process starts over for the address.
 */
export const pendingInvitesProcess: ProcessDefinition<PendingInvitesState, PendingInvitesEvent> = {
  name: 'pendinginvites',
  handles: ['InvitationRecorded', 'UserCreated', 'EmailReleased'],
  instanceOf(event: RecordedEvent) {
    if (event.type === 'InvitationRecorded' || event.type === 'EmailReleased') return addressOf(event);
    const emailKey = (upcast(event).data as Partial<UserCreated['data']>).emailKey;
    return typeof emailKey === 'string' ? emailKey : null;
  },
  initialState: () => ({ pending: {}, honoured: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'InviteNoted':
        return { ...state, pending: { ...state.pending, [event.data.organizationId]: event.data.role } };
      case 'InvitesHonoured':
        return { pending: {}, honoured: true };
      case 'InvitesReset':
        return { pending: {}, honoured: false };
      default:
        return state;
    }
  },
  when(state, event) {
    if (event.type === 'InvitationRecorded') {
      if (state.honoured) return [];
      return [
        {
          type: 'InviteNoted',
          data: { organizationId: String(event.data.organizationId), role: (event.data.role ?? null) as RoleOrGuest },
        },
      ];
    }
    if (event.type === 'EmailReleased') {
      if (!state.honoured && Object.keys(state.pending).length === 0) return [];
      return [{ type: 'InvitesReset', data: { userId: String(event.data.userId) } }];
    }
    if (event.type === 'UserCreated' && !state.honoured && Object.keys(state.pending).length > 0) {
      const data = upcast(event).data as UserCreated['data'];
      return [
        {
          type: 'InvitesHonoured',
          data: {
            userId: data.userId,
            emailKey: data.emailKey,
            invites: Object.entries(state.pending).map(([organizationId, role]) => ({ organizationId, role })),
          },
        },
      ];
    }
    return [];
  },
  commands(_state, event) {
    if (event.type !== 'InvitesHonoured') return [];
    const { userId, emailKey } = event.data;
    return event.data.invites.map((invite) => ({
      type: 'AddMember',
      data: {
        organizationId: invite.organizationId,
        userId,
        role: invite.role,
        ...(typeof emailKey === 'string' ? { invite: emailKey } : {}),
      },
    }));
  },
};
