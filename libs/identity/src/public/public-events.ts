/**
 * The identity context's public events: an organization's settings, its members, teams, invite links and SAML
 * providers. Users appear as `{id}` only: emails and names never leave the context this way. Events of a user's
 * own stream (tokens, addresses), of a hostname's claim stream and of SAML sign-ins are internal and map to
 * nothing (a hostname change shows as the organization's update); so is `MemberInvited`,
 * whose only content is an email address.
 */
import { js, pick, publicEventMapper, publicKind, roleOrNull, userRef } from '@app/kernel';

const ORGANIZATION_SETTINGS = [
  'title',
  'emailDomains',
  'hostname',
  'defaultRole',
  'defaultContent',
  'logo',
  'sso',
  'ai',
  'inviteLinks',
  'useCase',
] as const;

const organizationChanges = js.partial({
  title: js.string,
  emailDomains: js.array(js.string),
  hostname: js.string,
  defaultRole: roleOrNull,
  defaultContent: js.nullable(js.object({ type: js.enum('site'), site: js.string })),
  logo: js.nullable(js.string),
  sso: js.boolean,
  ai: js.boolean,
  inviteLinks: js.boolean,
  useCase: js.string,
});

const grant = {
  anyOf: [
    js.object({ role: roleOrNull }),
    js.object({ level: js.string, target: js.object({ kind: js.enum('space', 'collection'), id: js.string }) }),
  ],
};
const teamRole = js.enum('owner', 'member');

export const identityPublicEvents = publicEventMapper({
  kinds: [
    publicKind(
      'organization.created',
      'organization',
      'An organization was created (the first event of its feed).',
      js.object({ title: js.string, type: js.enum('business', 'community') }),
    ),
    publicKind(
      'organization.updated',
      'organization',
      'Settings of the organization changed: `changes` holds the fields set, with their new values.',
      js.object({ changes: organizationChanges }),
    ),
    publicKind(
      'member.added',
      'member',
      'Someone joined the organization (created it, was invited, accepted an invite link, or signed in with SAML). `role` null: a guest.',
      js.object({ user: js.ref, role: roleOrNull, sso: js.boolean }),
    ),
    publicKind(
      'member.updated',
      'member',
      "A member's organization role changed.",
      js.object({ user: js.ref, role: roleOrNull, previousRole: roleOrNull }),
    ),
    publicKind('member.removed', 'member', 'Someone left the organization.', js.object({ user: js.ref })),
    publicKind('team.created', 'team', 'A team was created.', js.object({ title: js.string })),
    publicKind('team.updated', 'team', 'A team was renamed.', js.object({ title: js.string })),
    publicKind('team.deleted', 'team', 'A team was deleted.', js.object({})),
    publicKind('team.member_added', 'team', 'Someone joined a team.', js.object({ user: js.ref, role: teamRole })),
    publicKind(
      'team.member_updated',
      'team',
      "A team member's team role changed.",
      js.object({ user: js.ref, role: teamRole }),
    ),
    publicKind('team.member_removed', 'team', 'Someone left a team.', js.object({ user: js.ref })),
    publicKind(
      'invite_link.created',
      'invite-link',
      'An invite link was created (admins only). The subject id is the SHA-256 of its secret, never the secret.',
      js.object({ grant }),
    ),
    publicKind(
      'invite_link.updated',
      'invite-link',
      "An invite link's grant changed (admins only).",
      js.object({ grant }),
    ),
    publicKind('invite_link.deleted', 'invite-link', 'An invite link was deleted (admins only).', js.object({})),
    publicKind(
      'saml_provider.created',
      'saml-provider',
      'A SAML provider was configured (admins only); `fields` names the settings given.',
      js.object({ fields: js.array(js.string) }),
    ),
    publicKind(
      'saml_provider.updated',
      'saml-provider',
      "A SAML provider's settings changed (admins only); `fields` names those set.",
      js.object({ fields: js.array(js.string) }),
    ),
    publicKind('saml_provider.deleted', 'saml-provider', 'A SAML provider was removed (admins only).', js.object({})),
  ],
  rules: {
    OrganizationCreated: (d) => ({
      type: 'organization.created',
      organization: d.organizationId,
      subject: { object: 'organization', id: d.organizationId },
      data: { title: d.title, type: d.type ?? 'business' },
    }),
    OrganizationUpdated: (d) => ({
      type: 'organization.updated',
      organization: d.organizationId,
      subject: { object: 'organization', id: d.organizationId },
      data: { changes: pick(d.changes, ORGANIZATION_SETTINGS) },
    }),
    MemberJoined: (d) => ({
      type: 'member.added',
      organization: d.organizationId,
      subject: { object: 'member', id: d.userId },
      data: { user: userRef(d.userId), role: d.role ?? null, sso: d.samlProviderId !== undefined },
    }),
    MemberRoleChanged: (d) => ({
      type: 'member.updated',
      organization: d.organizationId,
      subject: { object: 'member', id: d.userId },
      data: { user: userRef(d.userId), role: d.role ?? null, previousRole: d.previousRole ?? null },
    }),
    MemberRemoved: (d) => ({
      type: 'member.removed',
      organization: d.organizationId,
      subject: { object: 'member', id: d.userId },
      data: { user: userRef(d.userId) },
    }),
    TeamCreated: (d) => team('team.created', d, { title: d.title }),
    TeamRenamed: (d) => team('team.updated', d, { title: d.title }),
    TeamDeleted: (d) => team('team.deleted', d, {}),
    TeamMemberAdded: (d) => team('team.member_added', d, { user: userRef(d.userId), role: d.role }),
    TeamMemberRoleChanged: (d) => team('team.member_updated', d, { user: userRef(d.userId), role: d.role }),
    TeamMemberRemoved: (d) => team('team.member_removed', d, { user: userRef(d.userId) }),
    InviteLinkCreated: (d) => inviteLink('invite_link.created', d, { grant: d.grant }),
    InviteLinkChanged: (d) => inviteLink('invite_link.updated', d, { grant: d.grant }),
    InviteLinkDeleted: (d) => inviteLink('invite_link.deleted', d, {}),
    SamlProviderCreated: (d) => saml('saml_provider.created', d, { fields: Object.keys(d.settings ?? {}).sort() }),
    SamlProviderChanged: (d) => saml('saml_provider.updated', d, { fields: Object.keys(d.changes ?? {}).sort() }),
    SamlProviderDeleted: (d) => saml('saml_provider.deleted', d, {}),
  },
});

type Data = Record<string, string>;

function team(type: string, d: Data, data: Record<string, unknown>) {
  return { type, organization: d.organizationId, subject: { object: 'team', id: d.teamId }, data };
}

function inviteLink(type: string, d: Data, data: Record<string, unknown>) {
  return {
    type,
    organization: d.organizationId,
    subject: { object: 'invite-link', id: d.linkId },
    data,
    audience: 'admin' as const,
  };
}

function saml(type: string, d: Data, data: Record<string, unknown>) {
  return {
    type,
    organization: d.organizationId,
    subject: { object: 'saml-provider', id: d.providerId },
    data,
    audience: 'admin' as const,
  };
}
