import { type RecordedEvent } from '@app/kernel';
import { teamGrantsProcess as process } from './team-grants.process';

const recorded = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as RecordedEvent;

function run(events: RecordedEvent[]) {
  let state = process.initialState();
  const commands = [];
  for (const event of events) {
    for (const decided of process.when(state, event)) {
      state = process.evolve(state, decided);
      commands.push(...(process.commands?.(state, decided) ?? []));
    }
  }
  return { state, commands };
}

describe('team grants process', () => {
  const space = { kind: 'space', id: 's1' };
  const collection = { kind: 'collection', id: 'c1' };
  const team = { kind: 'team', id: 't1' };
  const granted = (target: object) =>
    recorded('AccessGranted', { organizationId: 'o1', target, grantee: team, role: 'read', grantedAt: 'now' });
  const deleted = recorded('TeamDeleted', { organizationId: 'o1', teamId: 't1', deletedAt: 'now' });

  it('follows the grants of one team, and ignores grants to users', () => {
    expect(process.instanceOf(granted(space))).toBe('t1');
    expect(process.instanceOf(deleted)).toBe('t1');
    const toUser = recorded('AccessGranted', {
      organizationId: 'o1',
      target: space,
      grantee: { kind: 'user', id: 'u1' },
    });
    expect(process.instanceOf(toUser)).toBeNull();
    const revoked = recorded('AccessRevoked', { organizationId: 'o1', target: space, grantee: team });
    expect(run([granted(space), granted(collection), granted(space), revoked]).state.grants).toEqual([
      { organizationId: 'o1', target: collection },
    ]);
  });

  it('withdraws every grant of a deleted team, and any made after the deletion', () => {
    const { commands, state } = run([granted(space), granted(collection), deleted]);
    expect(commands).toEqual([
      { type: 'RevokeGrant', data: { organizationId: 'o1', target: space, grantee: team } },
      { type: 'RevokeGrant', data: { organizationId: 'o1', target: collection, grantee: team } },
    ]);
    expect(state).toEqual({ deleted: true, grants: [] });
    const raced = run([deleted, granted(space)]);
    expect(raced.commands).toEqual([
      { type: 'RevokeGrant', data: { organizationId: 'o1', target: space, grantee: team } },
    ]);
  });
});
