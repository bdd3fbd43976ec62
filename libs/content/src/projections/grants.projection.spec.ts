import { type Doc, type Projection, type RecordedEvent } from '@app/kernel';
import { type GrantEvent } from '../domain';
import { granteeGrantsProjection, grantsProjection } from './grants.projection';

const now = '2026-01-02T03:04:05.000Z';
const later = '2026-01-03T03:04:05.000Z';

function project<D extends Doc>(projection: Projection<D>, events: readonly GrantEvent[]): Map<string, D> {
  const docs = new Map<string, D>();
  events.forEach((event, index) => {
    const recorded = {
      ...event,
      id: `e${index}`,
      revision: index,
      position: BigInt(index),
    } as unknown as RecordedEvent;
    const id = projection.idOf(recorded);
    if (id === null) return;
    const next = projection.evolve(docs.get(id) ?? null, recorded);
    if (next) docs.set(id, next);
    else docs.delete(id);
  });
  return docs;
}

const space = { kind: 'space' as const, id: 's1' };
const collection = { kind: 'collection' as const, id: 'c1' };
const team = { kind: 'team' as const, id: 't1' };
const user = { kind: 'user' as const, id: 'u1' };
const history: GrantEvent[] = [
  { type: 'AccessGranted', data: { organizationId: 'o1', target: space, grantee: team, role: 'read', grantedAt: now } },
  {
    type: 'AccessGranted',
    data: { organizationId: 'o1', target: collection, grantee: team, role: 'edit', grantedAt: now },
  },
  { type: 'AccessGranted', data: { organizationId: 'o1', target: space, grantee: user, role: 'read', grantedAt: now } },
  {
    type: 'AccessGranted',
    data: {
      organizationId: 'o1',
      target: space,
      grantee: team,
      role: 'review',
      previousRole: 'read',
      grantedAt: later,
    },
  },
  { type: 'AccessRevoked', data: { organizationId: 'o1', target: space, grantee: user, revokedAt: later } },
];

describe('grant projections', () => {
  it('lists each grant of an object, keeping its place when its role changes', () => {
    expect([...project(grantsProjection, history).values()]).toEqual([
      {
        id: 's1:team:t1',
        organizationId: 'o1',
        targetKind: 'space',
        targetId: 's1',
        granteeKind: 'team',
        granteeId: 't1',
        role: 'review',
        grantedAt: now,
      },
      {
        id: 'c1:team:t1',
        organizationId: 'o1',
        targetKind: 'collection',
        targetId: 'c1',
        granteeKind: 'team',
        granteeId: 't1',
        role: 'edit',
        grantedAt: now,
      },
    ]);
  });

  it('gathers what each grantee was given in one document, and drops it when nothing is left', () => {
    const docs = project(granteeGrantsProjection, history);
    expect(docs.get('o1:team:t1')).toEqual({
      id: 'o1:team:t1',
      organizationId: 'o1',
      spaces: { s1: 'review' },
      collections: { c1: 'edit' },
    });
    expect(docs.has('o1:user:u1')).toBe(false);
  });
});
