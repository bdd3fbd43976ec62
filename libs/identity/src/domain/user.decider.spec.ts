import { at, given } from '@app/kernel/testing';
import { type UserEvent, userDecider } from './user.decider';

const now = '2026-01-02T03:04:05.000Z';
/** Deciders never open sealed values: any envelope will do. */
const sealed = (text: string) => ({ enc: `v1:${Buffer.from(text).toString('base64')}`, subject: 'user:u1' });
const created: UserEvent = {
  type: 'UserCreated',
  data: {
    userId: 'u1',
    emailKey: 'k1',
    email: sealed('ada@example.com'),
    displayName: sealed('Ada'),
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};
const token = (tokenId: string, tokenHash: string): UserEvent => ({
  type: 'ApiTokenCreated',
  data: { userId: 'u1', tokenId, label: sealed('ci'), tokenHash, createdAt: '2026-01-01T00:00:00.000Z' },
});
const revoked = (tokenId: string, tokenHash: string): UserEvent => ({
  type: 'ApiTokenRevoked',
  data: { userId: 'u1', tokenId, tokenHash, revokedAt: now },
});
const erased: UserEvent = { type: 'UserErased', data: { userId: 'u1', erasedAt: now } };
const erase = { type: 'EraseUser' as const, data: { userId: 'u1' }, metadata: at(now) };

describe('user decider', () => {
  it('creates a user once', () => {
    const create = {
      type: 'CreateUser' as const,
      data: { userId: 'u1', emailKey: 'k1', email: sealed('ada@example.com'), displayName: sealed('Ada') },
      metadata: at(now),
    };
    given(userDecider)
      .when(create)
      .then([{ type: 'UserCreated', data: { ...create.data, createdAt: now } }]);
    given(userDecider, [created]).when(create).thenThrows('illegal-state');
  });

  it('creates tokens only for an existing user, recording the hash alone', () => {
    const command = {
      type: 'CreateApiToken' as const,
      data: { userId: 'u1', tokenId: 't2', label: sealed('laptop'), tokenHash: 'h2' },
      metadata: at(now),
    };
    given(userDecider, [created])
      .when(command)
      .then([{ type: 'ApiTokenCreated', data: { ...command.data, createdAt: now } }]);
    given(userDecider).when(command).thenThrows('not-found');
    given(userDecider, [created, token('t1', 'h1')])
      .when({ ...command, data: { ...command.data, tokenId: 't1' } })
      .thenThrows('illegal-state');
  });

  it('revokes a token once; revoking again changes nothing; an unknown token is not found', () => {
    const revoke = { type: 'RevokeApiToken' as const, data: { userId: 'u1', tokenId: 't1' }, metadata: at(now) };
    given(userDecider, [created, token('t1', 'h1')])
      .when(revoke)
      .then([revoked('t1', 'h1')]);
    given(userDecider, [created, token('t1', 'h1'), revoked('t1', 'h1')])
      .when(revoke)
      .thenNothing();
    given(userDecider, [created])
      .when(revoke)
      .thenThrows('not-found', /Token t1/);
  });

  it('erases a user: every live token is revoked in the same decision, and nothing personal is recorded', () => {
    given(userDecider, [created, token('t1', 'h1'), token('t2', 'h2'), token('t3', 'h3'), revoked('t2', 'h2')])
      .when(erase)
      .then([revoked('t1', 'h1'), revoked('t3', 'h3'), erased]);
    given(userDecider, [created]).when(erase).then([erased]);
  });

  it('erases once; an unknown user is not found', () => {
    given(userDecider, [created, erased]).when(erase).thenNothing();
    given(userDecider)
      .when(erase)
      .thenThrows('not-found', /User u1/);
  });

  it('keeps the address key of an erased user (a repeated erasure destroys its key again), and nothing else', () => {
    given(userDecider, [created, token('t1', 'h1'), revoked('t1', 'h1'), erased]).thenState({
      status: 'erased',
      userId: 'u1',
      emailKey: 'k1',
    });
  });

  it('gives an erased user no new token, and revokes none', () => {
    given(userDecider, [created, token('t1', 'h1'), revoked('t1', 'h1'), erased])
      .when({
        type: 'CreateApiToken',
        data: { userId: 'u1', tokenId: 't9', label: sealed('late'), tokenHash: 'h9' },
        metadata: at(now),
      })
      .thenThrows('not-found');
    given(userDecider, [created, token('t1', 'h1'), revoked('t1', 'h1'), erased])
      .when({ type: 'RevokeApiToken', data: { userId: 'u1', tokenId: 't1' }, metadata: at(now) })
      .thenThrows('not-found');
  });
});
