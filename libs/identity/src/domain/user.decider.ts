import { type Command, type Decider, type DomainEvent, IllegalState, NotFound, assertNever } from '@app/kernel/domain';

export const userStream = (userId: string) => `user-${userId}`;

export type CreateUser = Command<'CreateUser', { userId: string; email: string; displayName: string }>;
export type CreateApiToken = Command<
  'CreateApiToken',
  { userId: string; tokenId: string; label: string; tokenHash: string }
>;
export type RevokeApiToken = Command<'RevokeApiToken', { userId: string; tokenId: string }>;
export type UserCommand = CreateUser | CreateApiToken | RevokeApiToken;

export type UserCreated = DomainEvent<
  'UserCreated',
  { userId: string; email: string; displayName: string; createdAt: string }
>;
/** Carries only the hash of the token: the secret itself is shown once and never stored. */
export type ApiTokenCreated = DomainEvent<
  'ApiTokenCreated',
  { userId: string; tokenId: string; label: string; tokenHash: string; createdAt: string }
>;
/** Carries the token's hash too, so that the lookup by hash (authentication) can drop it. */
export type ApiTokenRevoked = DomainEvent<
  'ApiTokenRevoked',
  { userId: string; tokenId: string; tokenHash: string; revokedAt: string }
>;
export type UserEvent = UserCreated | ApiTokenCreated | ApiTokenRevoked;

export type UserState =
  | { status: 'absent' }
  | { status: 'active'; userId: string; tokens: Readonly<Record<string, { tokenHash: string; revoked: boolean }>> };

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
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserCreated':
        return { status: 'active', userId: event.data.userId, tokens: {} };
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
      default:
        return state;
    }
  },
};
