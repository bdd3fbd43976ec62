import { type Command, type Decider, type DomainEvent, IllegalState, NotFound, assertNever } from '@app/kernel/domain';
import { type PersonalText, type Sealed } from './personal-text';

export const userStream = (userId: string) => `user-${userId}`;

/**
 * `emailKey` is the key of the address's `email-<key>` stream (a digest, not the address); the address and the
 * name are sealed with the user's key.
 */
export type CreateUser = Command<
  'CreateUser',
  { userId: string; emailKey: string; email: Sealed; displayName: Sealed }
>;
/** `label` is the user's own words, so it is sealed like their other personal data. */
export type CreateApiToken = Command<
  'CreateApiToken',
  { userId: string; tokenId: string; label: Sealed; tokenHash: string }
>;
export type RevokeApiToken = Command<'RevokeApiToken', { userId: string; tokenId: string }>;
/** Records that the person was erased: their tokens are revoked in the same append. */
export type EraseUser = Command<'EraseUser', { userId: string }>;
export type UserCommand = CreateUser | CreateApiToken | RevokeApiToken | EraseUser;

/**
 * `email` and `displayName` are sealed since personal data is (clear text in older events, which also lack
 * `emailKey`: the application's upcaster works it out from the address).
 */
export type UserCreated = DomainEvent<
  'UserCreated',
  { userId: string; emailKey: string; email: PersonalText; displayName: PersonalText; createdAt: string }
>;
/** Carries only the hash of the token: the secret itself is shown once and never stored. */
export type ApiTokenCreated = DomainEvent<
  'ApiTokenCreated',
  { userId: string; tokenId: string; label: PersonalText; tokenHash: string; createdAt: string }
>;
/** Carries the token's hash too, so that the lookup by hash (authentication) can drop it. */
export type ApiTokenRevoked = DomainEvent<
  'ApiTokenRevoked',
  { userId: string; tokenId: string; tokenHash: string; revokedAt: string }
>;
/** The person was erased: their key is destroyed, so what was sealed with it reads as erased. No personal data. */
export type UserErased = DomainEvent<'UserErased', { userId: string; erasedAt: string }>;
export type UserEvent = UserCreated | ApiTokenCreated | ApiTokenRevoked | UserErased;

type Tokens = Readonly<Record<string, { tokenHash: string; revoked: boolean }>>;

export type UserState =
  | { status: 'absent' }
  | { status: 'active'; userId: string; emailKey: string; tokens: Tokens }
  | { status: 'erased'; userId: string; emailKey: string };

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'CreateUser':
        if (state.status !== 'absent') throw new IllegalState(`user ${command.data.userId} already exists`);
        return [{ type: 'UserCreated', data: { ...command.data, createdAt: now } }];
      case 'CreateApiToken': {
        if (state.status !== 'active') throw new NotFound(`User ${command.data.userId} not found`);
        if (state.tokens[command.data.tokenId]) throw new IllegalState(`token ${command.data.tokenId} already exists`);
        return [{ type: 'ApiTokenCreated', data: { ...command.data, createdAt: now } }];
      }
      case 'RevokeApiToken': {
        if (state.status !== 'active') throw new NotFound(`User ${command.data.userId} not found`);
        const token = state.tokens[command.data.tokenId];
        if (!token) throw new NotFound(`Token ${command.data.tokenId} not found`);
        if (token.revoked) return [];
        return [{ type: 'ApiTokenRevoked', data: { ...command.data, tokenHash: token.tokenHash, revokedAt: now } }];
      }
      case 'EraseUser': {
        if (state.status === 'absent') throw new NotFound(`User ${command.data.userId} not found`);
        if (state.status === 'erased') return [];
        const { userId } = command.data;
        // Every live token stops working in the same append that records the erasure.
        const revocations = Object.entries(state.tokens)
          .filter(([, token]) => !token.revoked)
          .map(([tokenId, token]): ApiTokenRevoked => ({
            type: 'ApiTokenRevoked',
            data: { userId, tokenId, tokenHash: token.tokenHash, revokedAt: now },
          }));
        return [...revocations, { type: 'UserErased', data: { userId, erasedAt: now } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserCreated':
        return { status: 'active', userId: event.data.userId, emailKey: event.data.emailKey, tokens: {} };
      case 'ApiTokenCreated':
        if (state.status !== 'active') return state;
        return {
          ...state,
          tokens: { ...state.tokens, [event.data.tokenId]: { tokenHash: event.data.tokenHash, revoked: false } },
        };
      case 'ApiTokenRevoked':
        if (state.status !== 'active') return state;
        return {
          ...state,
          tokens: { ...state.tokens, [event.data.tokenId]: { tokenHash: event.data.tokenHash, revoked: true } },
        };
      case 'UserErased':
        if (state.status !== 'active') return state;
        return { status: 'erased', userId: state.userId, emailKey: state.emailKey };
      default:
        return state;
    }
  },
};
