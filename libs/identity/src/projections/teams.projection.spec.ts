import { type Doc, type Projection, type RecordedEvent } from '@app/kernel';
import { type OrganizationEvent } from '../domain';
import { inviteLinksProjection } from './invite-links.projection';
import { membersProjection } from './members.projection';
import { teamMembersProjection, teamsProjection } from './teams.projection';

const now = '2026-01-02T03:04:05.000Z';

/** Runs events through a projection the way the runner does: one document per `idOf`. */
function project<D extends Doc>(projection: Projection<D>, events: readonly OrganizationEvent[]): Map<string, D> {
  const docs = new Map<string, D>();
  events.forEach((event, index) => {
    if (!projection.handles.includes(event.type)) return;
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

const history: OrganizationEvent[] = [
  {
    type: 'MemberJoined',
    data: { organizationId: 'o1', userId: 'u1', role: null, joinedAt: now },
  },
  { type: 'TeamCreated', data: { organizationId: 'o1', teamId: 't1', title: 'Writers', createdAt: now } },
  { type: 'TeamCreated', data: { organizationId: 'o1', teamId: 't2', title: 'Readers', createdAt: now } },
  { type: 'TeamMemberAdded', data: { organizationId: 'o1', teamId: 't1', userId: 'u1', role: 'member', addedAt: now } },
  { type: 'TeamMemberAdded', data: { organizationId: 'o1', teamId: 't2', userId: 'u1', role: 'member', addedAt: now } },
  {
    type: 'TeamMemberRoleChanged',
    data: { organizationId: 'o1', teamId: 't1', userId: 'u1', role: 'owner', changedAt: now },
  },
  { type: 'TeamRenamed', data: { organizationId: 'o1', teamId: 't1', title: 'Editors', renamedAt: now } },
  { type: 'TeamMemberRemoved', data: { organizationId: 'o1', teamId: 't2', userId: 'u1', removedAt: now } },
  { type: 'TeamDeleted', data: { organizationId: 'o1', teamId: 't2', deletedAt: now } },
];

describe('team projections', () => {
  it('keeps each team with its title and member count; a deleted team is gone', () => {
    expect([...project(teamsProjection, history).values()]).toEqual([
      { id: 't1', organizationId: 'o1', title: 'Editors', members: 1, createdAt: now },
    ]);
  });

  it('keeps each membership with its team role', () => {
    expect([...project(teamMembersProjection, history).values()]).toEqual([
      { id: 't1:u1', organizationId: 'o1', teamId: 't1', userId: 'u1', role: 'owner', addedAt: now },
    ]);
  });

  it("keeps the teams a member is in on the member's document", () => {
    expect(project(membersProjection, history).get('o1:u1')).toMatchObject({ role: null, teams: ['t1'] });
  });
});

describe('invite links projection', () => {
  it('keeps live links by hash with what they give; a deleted link is gone', () => {
    const space = { kind: 'space' as const, id: 's1' };
    const docs = project(inviteLinksProjection, [
      {
        type: 'InviteLinkCreated',
        data: { organizationId: 'o1', linkId: 'h1', grant: { role: 'read' }, createdAt: now },
      },
      {
        type: 'InviteLinkCreated',
        data: { organizationId: 'o1', linkId: 'h2', grant: { level: 'read', target: space }, createdAt: now },
      },
      {
        type: 'InviteLinkChanged',
        data: { organizationId: 'o1', linkId: 'h2', grant: { level: 'edit', target: space }, changedAt: now },
      },
      { type: 'InviteLinkDeleted', data: { organizationId: 'o1', linkId: 'h1', deletedAt: now } },
    ]);
    expect([...docs.values()]).toEqual([
      { id: 'h2', organizationId: 'o1', kind: 'space', level: 'edit', targetId: 's1', createdAt: now },
    ]);
  });
});
