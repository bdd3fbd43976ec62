import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { organizationPermissions } from '../domain/organization-permissions';
import { type Person } from './personal-data/people';
import { type ApiTokenDoc, type MemberDoc, type OrganizationDoc } from './read-models';

/** The seed's User shape; an erased (or unknown) person has a placeholder name and no email. */
export function presentUser(person: Person, urls: PublicUrls) {
  return {
    object: 'user' as const,
    id: person.id,
    displayName: person.displayName,
    ...(person.email !== undefined ? { email: person.email } : {}),
    urls: { location: `${urls.api}/users/${person.id}` },
  };
}

/** The seed's Organization shape, with permissions computed for the caller's role. */
export function presentOrganization(org: OrganizationDoc, role: RoleOrGuest | undefined, urls: PublicUrls) {
  const body: Record<string, unknown> = {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    type: org.type,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    trial: { count: 0, ...org.trial },
    mergeRules: { type: 'none' },
    sso: org.sso,
    ai: org.ai,
    urls: {
      location: `${urls.api}/orgs/${org.id}`,
      app: `${urls.app}/o/${org.id}`,
      ...(org.logo ? { logo: org.logo } : {}),
    },
    permissions: organizationPermissions(role ?? null),
  };
  if (org.hostname !== undefined && org.hostname !== null) body.hostname = org.hostname;
  if (org.useCase !== undefined && org.useCase !== null) body.useCase = org.useCase;
  if (org.communityType !== undefined && org.communityType !== null) body.communityType = org.communityType;
  if (org.defaultRole !== undefined) body.defaultRole = org.defaultRole;
  if (org.defaultContent) body.defaultContent = org.defaultContent;
  return body;
}

/** The spec's OrganizationMember shape, with the member's person (see `People`). */
export function presentMember(member: MemberDoc, person: Person, urls: PublicUrls) {
  return {
    object: 'member' as const,
    id: member.userId,
    role: member.role,
    user: presentUser(person, urls),
    disabled: false,
    joinedAt: member.joinedAt,
    sso: member.sso === true,
    spaces: 0,
    teams: member.teams?.length ?? 0,
  };
}

/**
 * The spec's UserAPIToken shape (the secret itself is returned only once, at creation), with its label opened;
 * `label` is the opened text (empty if it no longer opens).
 */
export function presentToken(token: ApiTokenDoc, label: string | undefined) {
  return {
    object: 'api-token' as const,
    id: token.id,
    label: label ?? '',
    createdAt: token.createdAt,
    ...(token.revokedAt ? { revokedAt: token.revokedAt } : {}),
  };
}
