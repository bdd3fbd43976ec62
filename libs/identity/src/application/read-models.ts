import { type Role, type RoleOrGuest } from '@app/kernel/domain';
import { type TeamMemberRole } from '../domain';

/** Read-model collections of the identity context (written by ../projections). */
export const USERS = 'users';
export const API_TOKENS = 'api_tokens';
export const API_TOKEN_HASHES = 'api_token_hashes';
export const ORGANIZATIONS = 'organizations';
export const MEMBERS = 'org_members';
export const INVITES = 'org_invites';

export interface UserDoc {
  id: string;
  email: string;
  displayName: string;
  createdAt: string;
  revision: number;
  [key: string]: unknown;
}

export interface ApiTokenDoc {
  id: string;
  userId: string;
  label: string;
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

export interface MemberDoc {
  id: string;
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  email: string;
  displayName: string;
  joinedAt: string;
  /** The teams of the organization the member is in. */
  teams?: string[];
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
