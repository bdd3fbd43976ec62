import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { organizationPermissions } from '../domain/organization-permissions';
import { type ApiTokenDoc, type MemberDoc, type OrganizationDoc, type UserDoc } from './read-models';

/** The seed's User shape. */
export function presentUser(user: Pick<UserDoc, 'id' | 'email' | 'displayName'>, urls: PublicUrls) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    urls: { location: `${urls.api}/users/${user.id}` },
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

/** The spec's OrganizationMember shape. */
export function presentMember(member: MemberDoc, urls: PublicUrls) {
  return {
    object: 'member' as const,
    id: member.userId,
    role: member.role,
    user: presentUser({ id: member.userId, email: member.email, displayName: member.displayName }, urls),
    disabled: false,
    joinedAt: member.joinedAt,
    sso: false,
    spaces: 0,
    teams: member.teams?.length ?? 0,
  };
}

/** The spec's UserAPIToken shape (the secret itself is returned only once, at creation). */
export function presentToken(token: ApiTokenDoc) {
  return {
    object: 'api-token' as const,
    id: token.id,
    label: token.label,
    createdAt: token.createdAt,
    ...(token.revokedAt ? { revokedAt: token.revokedAt } : {}),
  };
}
