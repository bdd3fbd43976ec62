import { at, given } from '@app/kernel/testing';
import { type OrganizationCommand, type OrganizationEvent, organizationDecider } from './organization.decider';

const now = '2026-01-02T03:04:05.000Z';
const ada = { userId: 'u1', email: 'ada@example.com', displayName: 'Ada' };
const bob = { userId: 'u2', email: 'bob@example.com', displayName: 'Bob' };
const created: OrganizationEvent[] = [
  {
    type: 'OrganizationCreated',
    data: { organizationId: 'o1', title: 'Acme', type: 'business', emailDomains: [], createdBy: 'u1', createdAt: now },
  },
  { type: 'MemberJoined', data: { organizationId: 'o1', ...ada, role: 'admin', joinedAt: now } },
];
const bobJoined: OrganizationEvent = {
  type: 'MemberJoined',
  data: { organizationId: 'o1', ...bob, role: 'read', joinedAt: now },
};
const command = <C extends OrganizationCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, metadata: at(now) }) as C;

describe('organization decider', () => {
  it('creates an organization whose creator is its first admin', () => {
    given(organizationDecider)
      .when(command('CreateOrganization', { organizationId: 'o1', title: 'Acme', createdBy: ada }))
      .then(created);
  });

  it('refuses a blank or over-long title and a second creation', () => {
    given(organizationDecider)
      .when(command('CreateOrganization', { organizationId: 'o1', title: '  ', createdBy: ada }))
      .thenThrows('validation', /title/);
    given(organizationDecider)
      .when(command('CreateOrganization', { organizationId: 'o1', title: 'x'.repeat(256), createdBy: ada }))
      .thenThrows('validation');
    given(organizationDecider, created)
      .when(command('CreateOrganization', { organizationId: 'o1', title: 'Acme', createdBy: ada }))
      .thenThrows('illegal-state');
  });

  it('records the fields an update sets, and nothing for an empty update', () => {
    given(organizationDecider, created)
      .when(command('UpdateOrganization', { organizationId: 'o1', changes: { title: 'Acme Inc', logo: null } }))
      .then([
        {
          type: 'OrganizationUpdated',
          data: { organizationId: 'o1', changes: { title: 'Acme Inc', logo: null }, updatedAt: now },
        },
      ]);
    given(organizationDecider, created)
      .when(command('UpdateOrganization', { organizationId: 'o1', changes: {} }))
      .thenNothing();
    given(organizationDecider)
      .when(command('UpdateOrganization', { organizationId: 'o1', changes: { title: 'Acme Inc' } }))
      .thenThrows('not-found');
  });

  it('adds a member once', () => {
    given(organizationDecider, created)
      .when(command('AddMember', { organizationId: 'o1', ...bob, role: 'read' }))
      .then([bobJoined]);
    given(organizationDecider, [...created, bobJoined])
      .when(command('AddMember', { organizationId: 'o1', ...bob, role: 'admin' }))
      .thenNothing();
  });

  it('never leaves an organization without an admin', () => {
    given(organizationDecider, created)
      .when(command('ChangeMemberRole', { organizationId: 'o1', userId: 'u1', role: 'edit' }))
      .thenThrows('illegal-state', /last admin/);
    given(organizationDecider, created)
      .when(command('RemoveMember', { organizationId: 'o1', userId: 'u1' }))
      .thenThrows('illegal-state', /last admin/);
    const bobAdmin: OrganizationEvent = {
      type: 'MemberRoleChanged',
      data: { organizationId: 'o1', userId: 'u2', role: 'admin', previousRole: 'read', changedAt: now },
    };
    given(organizationDecider, [...created, bobJoined, bobAdmin])
      .when(command('RemoveMember', { organizationId: 'o1', userId: 'u1' }))
      .then([{ type: 'MemberRemoved', data: { organizationId: 'o1', userId: 'u1', removedAt: now } }]);
  });

  it('changes roles of members only; the same role changes nothing', () => {
    given(organizationDecider, [...created, bobJoined])
      .when(command('ChangeMemberRole', { organizationId: 'o1', userId: 'u2', role: 'edit' }))
      .then([
        {
          type: 'MemberRoleChanged',
          data: { organizationId: 'o1', userId: 'u2', role: 'edit', previousRole: 'read', changedAt: now },
        },
      ]);
    given(organizationDecider, [...created, bobJoined])
      .when(command('ChangeMemberRole', { organizationId: 'o1', userId: 'u2', role: 'read' }))
      .thenNothing();
    given(organizationDecider, created)
      .when(command('ChangeMemberRole', { organizationId: 'o1', userId: 'u9', role: 'read' }))
      .thenThrows('not-found');
  });

  it('removing someone who is not a member changes nothing', () => {
    given(organizationDecider, created)
      .when(command('RemoveMember', { organizationId: 'o1', userId: 'u9' }))
      .thenNothing();
  });

  it('lists an invite once and forgets it when the address joins', () => {
    const invited: OrganizationEvent = {
      type: 'MemberInvited',
      data: { organizationId: 'o1', email: 'bob@example.com', role: 'read', invitedAt: now },
    };
    given(organizationDecider, created)
      .when(command('InviteMember', { organizationId: 'o1', email: 'bob@example.com', role: 'read' }))
      .then([invited]);
    given(organizationDecider, [...created, invited])
      .when(command('InviteMember', { organizationId: 'o1', email: 'bob@example.com', role: 'read' }))
      .thenNothing();
    given(organizationDecider, [...created, invited, bobJoined]).thenState({
      status: 'active',
      organizationId: 'o1',
      members: { u1: 'admin', u2: 'read' },
      invites: {},
    });
  });
});
