import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  type RoleOrGuest,
  assertNever,
} from '@app/kernel/domain';
import { type PersonalText, type Sealed } from './personal-text';

/**
 * One stream per email address (keyed by a digest of the normalised address), so that two users can never claim
 * the same address: the claim is an append with an expected revision. The address itself is sealed: with its
 * user's key in a claim, with the address's own key (`address:<key>`) in an invitation sent before it has a user.
 * An erased user's claim is released, so that the address can be used again (by a new user).
 */
export const emailStream = (emailKey: string) => `email-${emailKey}`;

export type ClaimEmail = Command<'ClaimEmail', { email: Sealed; userId: string }>;
/** The user who holds the address was erased: it goes back to nobody. */
export type ReleaseEmail = Command<'ReleaseEmail', { userId: string }>;
export type RecordPendingInvite = Command<
  'RecordPendingInvite',
  { email: Sealed; organizationId: string; role: RoleOrGuest; invitedBy: string }
>;
export type EmailAddressCommand = ClaimEmail | ReleaseEmail | RecordPendingInvite;

export type EmailClaimed = DomainEvent<'EmailClaimed', { email: PersonalText; userId: string; claimedAt: string }>;
export type EmailReleased = DomainEvent<'EmailReleased', { userId: string; releasedAt: string }>;
export type InvitationRecorded = DomainEvent<
  'InvitationRecorded',
  { email: PersonalText; organizationId: string; role: RoleOrGuest; invitedBy: string; invitedAt: string }
>;
export type EmailAddressEvent = EmailClaimed | EmailReleased | InvitationRecorded;

export type EmailAddressState =
  { status: 'unclaimed'; invitedTo: Readonly<Record<string, RoleOrGuest>> } | { status: 'claimed'; userId: string };

export const emailAddressDecider: Decider<EmailAddressState, EmailAddressCommand, EmailAddressEvent> = {
  initialState: () => ({ status: 'unclaimed', invitedTo: {} }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'ClaimEmail':
        if (state.status === 'claimed') {
          if (state.userId === command.data.userId) return [];
          throw new IllegalState('this email address belongs to another user');
        }
        return [{ type: 'EmailClaimed', data: { ...command.data, claimedAt: now } }];
      case 'ReleaseEmail':
        // Only its holder's erasure releases an address (a repeated release, or one after someone else claimed
        // the address again, changes nothing).
        if (state.status !== 'claimed' || state.userId !== command.data.userId) return [];
        return [{ type: 'EmailReleased', data: { ...command.data, releasedAt: now } }];
      case 'RecordPendingInvite':
        if (state.status === 'claimed') {
          throw new IllegalState('this email address already belongs to a user');
        }
        if (
          command.data.organizationId in state.invitedTo &&
          state.invitedTo[command.data.organizationId] === command.data.role
        ) {
          return [];
        }
        return [{ type: 'InvitationRecorded', data: { ...command.data, invitedAt: now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'EmailClaimed':
        return { status: 'claimed', userId: event.data.userId };
      case 'EmailReleased':
        if (state.status !== 'claimed' || state.userId !== event.data.userId) return state;
        return { status: 'unclaimed', invitedTo: {} };
      case 'InvitationRecorded':
        if (state.status !== 'unclaimed') return state;
        return { ...state, invitedTo: { ...state.invitedTo, [event.data.organizationId]: event.data.role } };
      default:
        return state;
    }
  },
};
