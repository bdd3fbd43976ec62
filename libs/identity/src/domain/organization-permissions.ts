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
