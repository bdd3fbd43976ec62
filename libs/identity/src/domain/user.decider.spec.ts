import { at, given } from '@app/kernel/testing';
import { type UserEvent, userDecider } from './user.decider';

const now = '2026-01-02T03:04:05.000Z';
const created: UserEvent = {
  type: 'UserCreated',
  data: { userId: 'u1', email: 'ada@example.com', displayName: 'Ada', createdAt: '2026-01-01T00:00:00.000Z' },
};
const token: UserEvent = {
  type: 'ApiTokenCreated',
  data: { userId: 'u1', tokenId: 't1', label: 'ci', tokenHash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' },
};

describe('user decider', () => {
  it('creates a user once', () => {
    given(userDecider)
      .when({
        type: 'CreateUser',
        data: { userId: 'u1', email: 'ada@example.com', displayName: 'Ada' },
        metadata: at(now),
      })
      .then([
        { type: 'UserCreated', data: { userId: 'u1', email: 'ada@example.com', displayName: 'Ada', createdAt: now } },
      ]);
    given(userDecider, [created])
      .when({
        type: 'CreateUser',
        data: { userId: 'u1', email: 'ada@example.com', displayName: 'Ada' },
        metadata: at(now),
      })
      .thenThrows('illegal-state');
  });

  it('creates tokens only for an existing user, recording the hash alone', () => {
    const command = {
      type: 'CreateApiToken' as const,
      data: { userId: 'u1', tokenId: 't2', label: 'laptop', tokenHash: 'h2' },
      metadata: at(now),
    };
    given(userDecider, [created])
      .when(command)
      .then([{ type: 'ApiTokenCreated', data: { ...command.data, createdAt: now } }]);
    given(userDecider).when(command).thenThrows('not-found');
    given(userDecider, [created, token])
      .when({ ...command, data: { ...command.data, tokenId: 't1' } })
      .thenThrows('illegal-state');
  });

  it('revokes a token once; revoking again changes nothing; an unknown token is not found', () => {
    const revoke = { type: 'RevokeApiToken' as const, data: { userId: 'u1', tokenId: 't1' }, metadata: at(now) };
    given(userDecider, [created, token])
      .when(revoke)
      .then([{ type: 'ApiTokenRevoked', data: { userId: 'u1', tokenId: 't1', tokenHash: 'h1', revokedAt: now } }]);
    given(userDecider, [
      created,
      token,
      { type: 'ApiTokenRevoked', data: { userId: 'u1', tokenId: 't1', tokenHash: 'h1', revokedAt: now } },
    ])
      .when(revoke)
      .thenNothing();
    given(userDecider, [created])
      .when(revoke)
      .thenThrows('not-found', /Token t1/);
  });
});
