import { type RecordedEvent } from '@app/kernel';
import { fold } from '@app/kernel/domain';
import { type OrganizationEvent, type UserEvent, userDecider } from '../../domain';
import { invitesProjection, membersProjection, usersProjection } from '../../projections';
import { organizations, users } from '../deciders';
import { emailKey } from '../tokens';
import { upcast } from './upcaster';

const now = '2026-01-02T03:04:05.000Z';
const key = emailKey('ada@example.com');

/** Events as they were recorded before personal data was sealed. */
const legacyUserCreated = {
  type: 'UserCreated',
  data: { userId: 'u1', email: 'ada@example.com', displayName: 'Ada', createdAt: now },
};
const legacyJoined = {
  type: 'MemberJoined',
  data: {
    organizationId: 'o1',
    userId: 'u1',
    email: 'ada@example.com',
    displayName: 'Ada',
    role: 'admin',
    joinedAt: now,
  },
};
const legacyInvited = {
  type: 'MemberInvited',
  data: { organizationId: 'o1', email: 'bob@example.com', role: 'read', invitedAt: now },
};
const orgCreated = {
  type: 'OrganizationCreated',
  data: { organizationId: 'o1', title: 'Acme', type: 'business', emailDomains: [], createdBy: 'u1', createdAt: now },
};

const recorded = (event: { type: string; data: object }, revision = 0): RecordedEvent => ({
  id: `e${revision}`,
  streamId: 'x-1',
  type: event.type,
  data: event.data as Record<string, unknown>,
  metadata: {},
  revision,
  position: BigInt(revision + 1),
  recordedAt: now,
});

describe('upcaster', () => {
  it('gives an old UserCreated the key of its address, and leaves its clear text for readers', () => {
    expect(upcast(legacyUserCreated).data).toEqual({ ...legacyUserCreated.data, emailKey: key });
    expect(fold(users, [legacyUserCreated as UserEvent])).toEqual({
      status: 'active',
      userId: 'u1',
      emailKey: key,
      tokens: {},
    });
  });

  it('drops the name and address an old MemberJoined copied, keeping the invite it closed', () => {
    expect(upcast(legacyJoined).data).toEqual({
      organizationId: 'o1',
      userId: 'u1',
      role: 'admin',
      joinedAt: now,
      invite: key,
    });
  });

  it('keys an old MemberInvited by its address, so the organization folds as if it were recorded today', () => {
    const history = [orgCreated, legacyJoined, legacyInvited] as OrganizationEvent[];
    const state = fold(organizations, history);
    expect(state).toMatchObject({ members: { u1: 'admin' }, invites: { [emailKey('bob@example.com')]: 'read' } });
    // an invitation of the same address with the same role, decided today, changes nothing
    expect(
      organizations.decide(
        {
          type: 'InviteMember',
          data: {
            organizationId: 'o1',
            invite: emailKey('bob@example.com'),
            email: { enc: 'v1:AAAA', subject: 'address:x' },
            role: 'read',
          },
          metadata: { now },
        },
        state,
      ),
    ).toEqual([]);
  });

  it('leaves current events and other types untouched', () => {
    const current = {
      type: 'UserCreated',
      data: {
        userId: 'u2',
        emailKey: 'k',
        email: { enc: 'v1:AA', subject: 'user:u2' },
        displayName: 'x',
        createdAt: now,
      },
    };
    expect(upcast(current)).toBe(current);
    expect(upcast(orgCreated)).toBe(orgCreated);
    expect(fold(userDecider, [current as UserEvent])).toMatchObject({ emailKey: 'k' });
  });

  it('lets projections apply old events: no copy of a name in memberships, invites by address key', () => {
    expect(usersProjection.evolve(null, recorded(legacyUserCreated))).toMatchObject({
      id: 'u1',
      email: 'ada@example.com',
      displayName: 'Ada',
    });
    const member = membersProjection.evolve(null, recorded(legacyJoined));
    expect(member).toEqual({
      id: 'o1:u1',
      organizationId: 'o1',
      userId: 'u1',
      role: 'admin',
      joinedAt: now,
      teams: [],
    });
    expect(invitesProjection.idOf(recorded(legacyInvited))).toBe(`o1:${emailKey('bob@example.com')}`);
    expect(invitesProjection.idOf(recorded(legacyJoined))).toBe(`o1:${key}`);
  });

  it('forgets an erased user in the users read model, clear text included', () => {
    const doc = usersProjection.evolve(null, recorded(legacyUserCreated));
    expect(
      usersProjection.evolve(doc, recorded({ type: 'UserErased', data: { userId: 'u1', erasedAt: now } }, 5)),
    ).toEqual({
      id: 'u1',
      createdAt: now,
      revision: 5,
      erased: true,
    });
  });
});
