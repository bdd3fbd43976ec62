import { type RoleOrGuest, atLeast } from '@app/kernel/domain';

/** The Organization `permissions` object of the spec, for a member with `role` (null: a guest or no member). */
export function organizationPermissions(role: RoleOrGuest) {
  const member = role !== null;
  const admin = atLeast(role, 'admin');
  return {
    view: member,
    access: member,
    admin,
    ownTeam: admin,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: member,
    installIntegration: admin,
  };
}

/**
 * The OrganizationTeam `permissions` of the spec: organization admins and the team's owners manage it; members
 * with a role see every team, guests only the teams they are in.
 */
export function teamPermissions(role: RoleOrGuest, teamRole: 'owner' | 'member' | undefined) {
  return {
    admin: atLeast(role, 'admin') || teamRole === 'owner',
    view: role !== null || teamRole !== undefined,
  };
}
