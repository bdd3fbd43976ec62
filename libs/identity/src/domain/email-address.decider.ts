import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  type RoleOrGuest,
  assertNever,
} from '@app/kernel/domain';

/**
 * One stream per email address (keyed by a digest of the normalised address), so that two users can never claim
 * the same address: the claim is an append with an expected revision.
 */
export const emailStream = (emailKey: string) => `email-${emailKey}`;

export type ClaimEmail = Command<'ClaimEmail', { email: string; userId: string }>;
export type RecordPendingInvite = Command<
  'RecordPendingInvite',
  { email: string; organizationId: string; role: RoleOrGuest; invitedBy: string }
>;
export type EmailAddressCommand = ClaimEmail | RecordPendingInvite;

export type EmailClaimed = DomainEvent<'EmailClaimed', { email: string; userId: string; claimedAt: string }>;
export type InvitationRecorded = DomainEvent<
  'InvitationRecorded',
  { email: string; organizationId: string; role: RoleOrGuest; invitedBy: string; invitedAt: string }
>;
export type EmailAddressEvent = EmailClaimed | InvitationRecorded;

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
          throw new IllegalState(`the email address ${command.data.email} belongs to another user`);
        }
        return [{ type: 'EmailClaimed', data: { ...command.data, claimedAt: now } }];
      case 'RecordPendingInvite':
        if (state.status === 'claimed') {
          throw new IllegalState(`the email address ${command.data.email} already belongs to a user`);
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
      case 'InvitationRecorded':
        if (state.status !== 'unclaimed') return state;
        return { ...state, invitedTo: { ...state.invitedTo, [event.data.organizationId]: event.data.role } };
      default:
        return state;
    }
  },
};
