import { type DomainEvent, type RoleOrGuest } from '@app/kernel/domain';
import { type ProcessDefinition, type RecordedEvent } from '@app/kernel';
import { emailKey } from '../application/tokens';

type InviteNoted = DomainEvent<'InviteNoted', { organizationId: string; role: RoleOrGuest }>;
type InvitesHonoured = DomainEvent<
  'InvitesHonoured',
  { userId: string; email: string; displayName: string; invites: { organizationId: string; role: RoleOrGuest }[] }
>;
type PendingInvitesEvent = InviteNoted | InvitesHonoured;

interface PendingInvitesState {
  pending: Record<string, RoleOrGuest>;
  honoured: boolean;
}

const EMAIL_STREAM_PREFIX = 'email-';

/**
 * An invitation sent to an address without an account waits on that address's stream; when a user with that
 * address is created, this process adds them to every organization that invited them.
 */
export const pendingInvitesProcess: ProcessDefinition<PendingInvitesState, PendingInvitesEvent> = {
  name: 'pendinginvites',
  handles: ['InvitationRecorded', 'UserCreated'],
  instanceOf(event: RecordedEvent) {
    if (event.type === 'InvitationRecorded') {
      return event.streamId.startsWith(EMAIL_STREAM_PREFIX) ? event.streamId.slice(EMAIL_STREAM_PREFIX.length) : null;
    }
    return typeof event.data.email === 'string' ? emailKey(event.data.email) : null;
  },
  initialState: () => ({ pending: {}, honoured: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'InviteNoted':
        return { ...state, pending: { ...state.pending, [event.data.organizationId]: event.data.role } };
      case 'InvitesHonoured':
        return { pending: {}, honoured: true };
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
    if (event.type === 'UserCreated' && !state.honoured && Object.keys(state.pending).length > 0) {
      return [
        {
          type: 'InvitesHonoured',
          data: {
            userId: String(event.data.userId),
            email: String(event.data.email),
            displayName: String(event.data.displayName),
            invites: Object.entries(state.pending).map(([organizationId, role]) => ({ organizationId, role })),
          },
        },
      ];
    }
    return [];
  },
  commands(_state, event) {
    if (event.type !== 'InvitesHonoured') return [];
    return event.data.invites.map((invite) => ({
      type: 'AddMember',
      data: {
        organizationId: invite.organizationId,
        userId: event.data.userId,
        email: event.data.email,
        displayName: event.data.displayName,
        role: invite.role,
      },
    }));
  },
};
