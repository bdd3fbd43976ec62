import { type Role, type RoleOrGuest } from '@app/kernel/domain';
import { type PersonalText, type TeamMemberRole } from '../domain';

/** Read-model collections of the identity context (written by ../projections). */
export const USERS = 'users';
export const API_TOKENS = 'api_tokens';
export const API_TOKEN_HASHES = 'api_token_hashes';
export const ORGANIZATIONS = 'organizations';
export const MEMBERS = 'org_members';
export const INVITES = 'org_invites';

/**
 * A user, with their personal data sealed as the events hold it (clear text for users created before sealing);
 * `People` opens it. An erased user keeps only `id`, `createdAt` and `erased`.
 */
export interface UserDoc {
  id: string;
  email?: PersonalText;
  displayName?: PersonalText;
  createdAt: string;
  revision: number;
  erased?: true;
  [key: string]: unknown;
}

export interface ApiTokenDoc {
  id: string;
  userId: string;
  /** Sealed with the user's key (clear in tokens made before sealing). */
  label: PersonalText;
  tokenHash: string;
  createdAt: string;
  revokedAt?: string;
  [key: string]: unknown;
}

export interface OrganizationDoc {
  id: string;
  title: string;
  type: 'business' | 'community';
  emailDomains: string[];
  createdAt: string;
  updatedAt?: string;
  hostname?: string;
  defaultRole?: RoleOrGuest;
  defaultContent?: { type: 'site'; site: string } | null;
  logo?: string | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  useCase?: string;
  communityType?: string;
  plan: string;
  trial: { status: string; endDate?: string };
  revision: number;
  [key: string]: unknown;
}

/** A membership; who the member is (name, email) is read from the `users` read model when it is shown. */
export interface MemberDoc {
  id: string;
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  joinedAt: string;
  /** The teams of the organization the member is in. */
  teams?: string[];
  /** Joined by signing in through a SAML provider of the organization. */
  sso?: boolean;
  [key: string]: unknown;
}

export const memberDocId = (organizationId: string, userId: string) => `${organizationId}:${userId}`;

export const TEAMS = 'org_teams';
export const TEAM_MEMBERS = 'org_team_members';

export interface TeamDoc {
  id: string;
  organizationId: string;
  title: string;
  /** How many members the team has. */
  members: number;
  createdAt: string;
  [key: string]: unknown;
}

export interface TeamMemberDoc {
  id: string;
  organizationId: string;
  teamId: string;
  userId: string;
  role: TeamMemberRole;
  addedAt: string;
  [key: string]: unknown;
}

export const teamMemberDocId = (teamId: string, userId: string) => `${teamId}:${userId}`;

/** Projections a team response reads. */
export const TEAM_READ_MODELS = ['teams', 'team_members', 'members'];

export const INVITE_LINKS = 'org_invite_links';

/** A live invite link, by the SHA-256 of its secret (the secret itself is stored nowhere). */
export interface InviteLinkDoc {
  id: string;
  organizationId: string;
  kind: 'organization' | 'space' | 'collection';
  role?: RoleOrGuest;
  level?: Role;
  targetId?: string;
  createdAt: string;
  [key: string]: unknown;
}

/** Projections an organization response reads (what a mutating endpoint waits for). */
export const ORGANIZATION_READ_MODELS = ['organizations', 'members'];

export const SAML_PROVIDERS = 'org_saml_providers';

/** A SAML provider with its settings as last set (unset ones absent). */
export interface SamlProviderDoc {
  id: string;
  organizationId: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole: RoleOrGuest;
  createdAt: string;
  [key: string]: unknown;
}

/** Projections a SAML provider response reads. */
export const SAML_READ_MODELS = ['saml_providers', 'teams'];
