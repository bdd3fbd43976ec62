import { at, given } from '@app/kernel/testing';
import { type GrantCommand, type GrantEvent, grantsDecider } from './content-grants.decider';

const now = '2026-01-02T03:04:05.000Z';
const target = { kind: 'space' as const, id: 's1' };
const ada = { kind: 'user' as const, id: 'u1' };
const writers = { kind: 'team' as const, id: 't1' };
const command = <C extends GrantCommand>(type: C['type'], data: C['data']) => ({ type, data, metadata: at(now) }) as C;
const granted = (grantee: typeof ada | typeof writers, role: 'read' | 'edit', previousRole?: 'read' | 'edit') =>
  ({
    type: 'AccessGranted',
    data: { organizationId: 'o1', target, grantee, role, ...(previousRole ? { previousRole } : {}), grantedAt: now },
  }) as GrantEvent;

describe('grants decider', () => {
  it('grants a role to users and teams, each once', () => {
    given(grantsDecider)
      .when(command('GrantAccess', { organizationId: 'o1', target, grantees: [ada, writers, ada], role: 'read' }))
      .then([granted(ada, 'read'), granted(writers, 'read')]);
  });

  it('records only what changes when granting again', () => {
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('GrantAccess', { organizationId: 'o1', target, grantees: [ada, writers], role: 'read' }))
      .then([granted(writers, 'read')]);
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('GrantAccess', { organizationId: 'o1', target, grantees: [ada], role: 'edit' }))
      .then([granted(ada, 'edit', 'read')]);
  });

  it('refuses an empty or too long list of grantees', () => {
    given(grantsDecider)
      .when(command('GrantAccess', { organizationId: 'o1', target, grantees: [], role: 'read' }))
      .thenThrows('validation');
    const many = Array.from({ length: 101 }, (_, i) => ({ kind: 'user' as const, id: `u${i}` }));
    given(grantsDecider)
      .when(command('GrantAccess', { organizationId: 'o1', target, grantees: many, role: 'read' }))
      .thenThrows('validation', /100/);
  });

  it('changes an existing grant only; an unknown one is not found', () => {
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('ChangeGrant', { organizationId: 'o1', target, grantee: ada, role: 'edit' }))
      .then([granted(ada, 'edit', 'read')]);
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('ChangeGrant', { organizationId: 'o1', target, grantee: ada, role: 'read' }))
      .thenNothing();
    given(grantsDecider)
      .when(command('ChangeGrant', { organizationId: 'o1', target, grantee: writers, role: 'edit' }))
      .thenThrows('not-found');
  });

  it('revokes a grant; revoking what is not granted records nothing', () => {
    const revoked: GrantEvent = {
      type: 'AccessRevoked',
      data: { organizationId: 'o1', target, grantee: ada, revokedAt: now },
    };
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('RevokeGrant', { organizationId: 'o1', target, grantee: ada }))
      .then([revoked]);
    given(grantsDecider, [granted(ada, 'read'), revoked])
      .when(command('RevokeGrant', { organizationId: 'o1', target, grantee: ada }))
      .thenNothing();
  });

  it('keeps grants per organization: after a move, the same person is granted anew', () => {
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('GrantAccess', { organizationId: 'o2', target, grantees: [ada], role: 'read' }))
      .then([
        {
          type: 'AccessGranted',
          data: { organizationId: 'o2', target, grantee: ada, role: 'read', grantedAt: now },
        },
      ]);
    given(grantsDecider, [granted(ada, 'read')])
      .when(command('RevokeGrant', { organizationId: 'o2', target, grantee: ada }))
      .thenNothing();
  });
});
