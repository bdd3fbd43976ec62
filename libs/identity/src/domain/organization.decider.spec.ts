import { at, given } from '@app/kernel/testing';
import { type OrganizationCommand, type OrganizationEvent, organizationDecider } from './organization.decider';

const now = '2026-01-02T03:04:05.000Z';
const ada = { userId: 'u1' };
const bob = { userId: 'u2' };
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

  it('lists an invite once, by the key of its address, and forgets it when that address joins', () => {
    const email = { enc: 'v1:c2VhbGVk', subject: 'address:k2' };
    const invited: OrganizationEvent = {
      type: 'MemberInvited',
      data: { organizationId: 'o1', invite: 'k2', email, role: 'read', invitedAt: now },
    };
    given(organizationDecider, created)
      .when(command('InviteMember', { organizationId: 'o1', invite: 'k2', email, role: 'read' }))
      .then([invited]);
    given(organizationDecider, [...created, invited])
      .when(
        command('InviteMember', {
          organizationId: 'o1',
          invite: 'k2',
          email: { ...email, enc: 'v1:b3RoZXI=' },
          role: 'read',
        }),
      )
      .thenNothing();
    // the pending-invites process adds the new user with the key of the address they signed up with
    given(organizationDecider, [...created, invited])
      .when(command('AddMember', { organizationId: 'o1', ...bob, role: 'read', invite: 'k2' }))
      .then([
        { type: 'MemberJoined', data: { organizationId: 'o1', ...bob, role: 'read', joinedAt: now, invite: 'k2' } },
      ]);
    const joined: OrganizationEvent = {
      type: 'MemberJoined',
      data: { ...bobJoined.data, invite: 'k2' } as Extract<OrganizationEvent, { type: 'MemberJoined' }>['data'],
    };
    given(organizationDecider, [...created, invited, joined]).thenState({
      status: 'active',
      organizationId: 'o1',
      members: { u1: 'admin', u2: 'read' },
      invites: {},
      teams: {},
      inviteLinks: false,
      links: {},
      samlProviders: {},
    });
    // another member joining leaves the invite pending
    given(organizationDecider, [...created, invited, bobJoined]).thenState({
      status: 'active',
      organizationId: 'o1',
      members: { u1: 'admin', u2: 'read' },
      invites: { k2: 'read' },
      teams: {},
      inviteLinks: false,
      links: {},
      samlProviders: {},
    });
  });

  it('records no personal data in memberships, whatever the command is given', () => {
    const withPersonalData = { userId: 'u2', email: 'bob@example.com', displayName: 'Bob' };
    given(organizationDecider, created)
      .when(command('AddMember', { organizationId: 'o1', ...withPersonalData, role: 'read' }))
      .then([bobJoined]);
  });
});

describe('organization decider: teams', () => {
  const guest = { userId: 'u3' };
  const guestJoined: OrganizationEvent = {
    type: 'MemberJoined',
    data: { organizationId: 'o1', ...guest, role: null, joinedAt: now },
  };
  const members = [...created, bobJoined, guestJoined];
  const teamCreated: OrganizationEvent = {
    type: 'TeamCreated',
    data: { organizationId: 'o1', teamId: 't1', title: 'Writers', createdAt: now },
  };
  const added = (userId: string, role: 'owner' | 'member' = 'member'): OrganizationEvent => ({
    type: 'TeamMemberAdded',
    data: { organizationId: 'o1', teamId: 't1', userId, role, addedAt: now },
  });
  const removed = (userId: string, teamId = 't1'): OrganizationEvent => ({
    type: 'TeamMemberRemoved',
    data: { organizationId: 'o1', teamId, userId, removedAt: now },
  });
  const withTeam = [...members, teamCreated, added('u2'), added('u3')];

  it('creates a team with members, guests included, each once', () => {
    given(organizationDecider, members)
      .when(
        command('CreateTeam', { organizationId: 'o1', teamId: 't1', title: 'Writers', members: ['u2', 'u3', 'u2'] }),
      )
      .then([teamCreated, added('u2'), added('u3')]);
  });

  it('refuses a blank or over-long title, a stranger as member, a team id twice, an unknown organization', () => {
    given(organizationDecider, members)
      .when(command('CreateTeam', { organizationId: 'o1', teamId: 't1', title: ' ', members: [] }))
      .thenThrows('validation', /title/);
    given(organizationDecider, members)
      .when(command('CreateTeam', { organizationId: 'o1', teamId: 't1', title: 'x'.repeat(65), members: [] }))
      .thenThrows('validation', /title/);
    given(organizationDecider, members)
      .when(command('CreateTeam', { organizationId: 'o1', teamId: 't1', title: 'Writers', members: ['u9'] }))
      .thenThrows('validation', /u9/);
    given(organizationDecider, withTeam)
      .when(command('CreateTeam', { organizationId: 'o1', teamId: 't1', title: 'Writers', members: [] }))
      .thenThrows('illegal-state');
    given(organizationDecider)
      .when(command('CreateTeam', { organizationId: 'o1', teamId: 't1', title: 'Writers', members: [] }))
      .thenThrows('not-found');
  });

  it('renames a team; an unknown team is not found', () => {
    given(organizationDecider, withTeam)
      .when(command('RenameTeam', { organizationId: 'o1', teamId: 't1', title: 'Editors' }))
      .then([{ type: 'TeamRenamed', data: { organizationId: 'o1', teamId: 't1', title: 'Editors', renamedAt: now } }]);
    given(organizationDecider, withTeam)
      .when(command('RenameTeam', { organizationId: 'o1', teamId: 't9', title: 'Editors' }))
      .thenThrows('not-found');
  });

  it('deletes a team after removing its members; deleting it again changes nothing', () => {
    const deleted: OrganizationEvent = {
      type: 'TeamDeleted',
      data: { organizationId: 'o1', teamId: 't1', deletedAt: now },
    };
    given(organizationDecider, withTeam)
      .when(command('DeleteTeam', { organizationId: 'o1', teamId: 't1' }))
      .then([removed('u2'), removed('u3'), deleted]);
    given(organizationDecider, [...withTeam, removed('u2'), removed('u3'), deleted])
      .when(command('DeleteTeam', { organizationId: 'o1', teamId: 't1' }))
      .thenNothing();
  });

  it('adds, re-roles and removes members in one change; what is already so records nothing', () => {
    given(organizationDecider, withTeam)
      .when(
        command('ChangeTeamMembers', {
          organizationId: 'o1',
          teamId: 't1',
          add: ['u1', 'u2'],
          remove: ['u3', 'u9'],
          roles: { u2: 'owner' },
        }),
      )
      .then([
        added('u1'),
        {
          type: 'TeamMemberRoleChanged',
          data: { organizationId: 'o1', teamId: 't1', userId: 'u2', role: 'owner', changedAt: now },
        },
        removed('u3'),
      ]);
    given(organizationDecider, withTeam)
      .when(command('ChangeTeamMembers', { organizationId: 'o1', teamId: 't1', add: ['u2'], remove: [], roles: {} }))
      .thenNothing();
    given(organizationDecider, withTeam)
      .when(command('ChangeTeamMembers', { organizationId: 'o1', teamId: 't1', add: ['u9'], remove: [], roles: {} }))
      .thenThrows('validation', /u9/);
  });

  it('sets one member with a role, changes it, and removes them', () => {
    given(organizationDecider, [...members, teamCreated])
      .when(command('SetTeamMember', { organizationId: 'o1', teamId: 't1', userId: 'u3', role: 'owner' }))
      .then([added('u3', 'owner')]);
    given(organizationDecider, withTeam)
      .when(command('SetTeamMember', { organizationId: 'o1', teamId: 't1', userId: 'u3' }))
      .thenNothing();
    given(organizationDecider, withTeam)
      .when(command('SetTeamMember', { organizationId: 'o1', teamId: 't9', userId: 'u3' }))
      .thenThrows('not-found');
    given(organizationDecider, withTeam)
      .when(command('RemoveTeamMember', { organizationId: 'o1', teamId: 't1', userId: 'u3' }))
      .then([removed('u3')]);
    given(organizationDecider, withTeam)
      .when(command('RemoveTeamMember', { organizationId: 'o1', teamId: 't1', userId: 'u1' }))
      .thenNothing();
  });

  it('takes a member who leaves the organization out of their teams first', () => {
    given(organizationDecider, withTeam)
      .when(command('RemoveMember', { organizationId: 'o1', userId: 'u3' }))
      .then([removed('u3'), { type: 'MemberRemoved', data: { organizationId: 'o1', userId: 'u3', removedAt: now } }]);
  });
});

describe('organization decider: invite links', () => {
  const turnedOn: OrganizationEvent = {
    type: 'OrganizationUpdated',
    data: { organizationId: 'o1', changes: { inviteLinks: true }, updatedAt: now },
  };
  const on = [...created, bobJoined, turnedOn];
  const toOrganization: OrganizationEvent = {
    type: 'InviteLinkCreated',
    data: { organizationId: 'o1', linkId: 'h1', grant: { role: 'edit' }, createdAt: now },
  };
  const space = { kind: 'space' as const, id: 's1' };
  const toSpace: OrganizationEvent = {
    type: 'InviteLinkCreated',
    data: { organizationId: 'o1', linkId: 'h2', grant: { level: 'comment', target: space }, createdAt: now },
  };
  const carol = { userId: 'u3' };

  it('creates links only while invite links are turned on', () => {
    given(organizationDecider, on)
      .when(command('CreateInviteLink', { organizationId: 'o1', linkId: 'h1', grant: { role: 'edit' } }))
      .then([toOrganization]);
    given(organizationDecider, [...created, bobJoined])
      .when(command('CreateInviteLink', { organizationId: 'o1', linkId: 'h1', grant: { role: 'edit' } }))
      .thenThrows('illegal-state', /turned off/);
    given(organizationDecider, [
      ...on,
      { type: 'OrganizationUpdated', data: { organizationId: 'o1', changes: { inviteLinks: false }, updatedAt: now } },
    ])
      .when(command('DeleteInviteLink', { organizationId: 'o1', linkId: 'h1' }))
      .thenThrows('illegal-state');
  });

  it('changes the role of an organization link and the level of a content link, not the other way round', () => {
    given(organizationDecider, [...on, toOrganization])
      .when(command('ChangeInviteLink', { organizationId: 'o1', linkId: 'h1', change: { role: null } }))
      .then([
        {
          type: 'InviteLinkChanged',
          data: { organizationId: 'o1', linkId: 'h1', grant: { role: null }, changedAt: now },
        },
      ]);
    given(organizationDecider, [...on, toSpace])
      .when(command('ChangeInviteLink', { organizationId: 'o1', linkId: 'h2', change: { level: 'edit' } }))
      .then([
        {
          type: 'InviteLinkChanged',
          data: { organizationId: 'o1', linkId: 'h2', grant: { level: 'edit', target: space }, changedAt: now },
        },
      ]);
    given(organizationDecider, [...on, toSpace])
      .when(command('ChangeInviteLink', { organizationId: 'o1', linkId: 'h2', change: { role: 'edit' } }))
      .thenThrows('validation', /level/);
    given(organizationDecider, [...on, toOrganization])
      .when(command('ChangeInviteLink', { organizationId: 'o1', linkId: 'h1', change: { level: 'edit' } }))
      .thenThrows('validation', /role/);
    given(organizationDecider, on)
      .when(command('ChangeInviteLink', { organizationId: 'o1', linkId: 'h9', change: { role: 'edit' } }))
      .thenThrows('not-found');
  });

  it('lets a newcomer join with the link role, or as a guest with a content link', () => {
    given(organizationDecider, [...on, toOrganization])
      .when(command('AcceptInviteLink', { organizationId: 'o1', linkId: 'h1', member: carol }))
      .then([{ type: 'MemberJoined', data: { organizationId: 'o1', ...carol, role: 'edit', joinedAt: now } }]);
    given(organizationDecider, [...on, toSpace])
      .when(command('AcceptInviteLink', { organizationId: 'o1', linkId: 'h2', member: carol }))
      .then([{ type: 'MemberJoined', data: { organizationId: 'o1', ...carol, role: null, joinedAt: now } }]);
  });

  it('raises a member to the link role but never lowers one', () => {
    given(organizationDecider, [...on, toOrganization])
      .when(command('AcceptInviteLink', { organizationId: 'o1', linkId: 'h1', member: bob }))
      .then([
        {
          type: 'MemberRoleChanged',
          data: { organizationId: 'o1', userId: 'u2', role: 'edit', previousRole: 'read', changedAt: now },
        },
      ]);
    given(organizationDecider, [...on, toOrganization])
      .when(command('AcceptInviteLink', { organizationId: 'o1', linkId: 'h1', member: ada }))
      .thenNothing();
    given(organizationDecider, [...on, toSpace])
      .when(command('AcceptInviteLink', { organizationId: 'o1', linkId: 'h2', member: bob }))
      .thenNothing();
  });

  it('refuses a deleted link, and deleting it again records nothing', () => {
    const deleted: OrganizationEvent = {
      type: 'InviteLinkDeleted',
      data: { organizationId: 'o1', linkId: 'h1', deletedAt: now },
    };
    given(organizationDecider, [...on, toOrganization])
      .when(command('DeleteInviteLink', { organizationId: 'o1', linkId: 'h1' }))
      .then([deleted]);
    given(organizationDecider, [...on, toOrganization, deleted])
      .when(command('AcceptInviteLink', { organizationId: 'o1', linkId: 'h1', member: carol }))
      .thenThrows('not-found');
    given(organizationDecider, [...on, toOrganization, deleted])
      .when(command('DeleteInviteLink', { organizationId: 'o1', linkId: 'h1' }))
      .thenNothing();
  });
});
