import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  type Role,
  type RoleOrGuest,
  ValidationFailed,
  assertNever,
  characterCount,
  roleRank,
} from '@app/kernel/domain';
import { type PersonalText, type Sealed } from './personal-text';

export const organizationStream = (organizationId: string) => `organization-${organizationId}`;

export type OrganizationType = 'business' | 'community';

/** Settings an admin may change with PATCH /orgs/{id}; `null` clears a field that allows it. */
export type OrganizationChanges = {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: RoleOrGuest;
  defaultContent?: { type: 'site'; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  useCase?: string;
};

/**
 * Who joins. Memberships carry no personal data (events before sealing also copied the member's email and name
 * into `MemberJoined`); answers show the person from the user's own record.
 */
export type MemberIdentity = {
  userId: string;
};

export type CreateOrganization = Command<
  'CreateOrganization',
  { organizationId: string; title: string; createdBy: MemberIdentity; type?: OrganizationType; emailDomains?: string[] }
>;
export type UpdateOrganization = Command<
  'UpdateOrganization',
  { organizationId: string; changes: OrganizationChanges }
>;
/** `invite`: the key of the address whose pending invite this honours (the pending-invites process sets it). */
export type AddMember = Command<
  'AddMember',
  { organizationId: string; role: RoleOrGuest; invite?: string } & MemberIdentity
>;
export type ChangeMemberRole = Command<
  'ChangeMemberRole',
  { organizationId: string; userId: string; role: RoleOrGuest }
>;
export type RemoveMember = Command<'RemoveMember', { organizationId: string; userId: string }>;
/** `invite` is the key of the address (its `email-<key>` stream); the address is sealed with the address's key. */
export type InviteMember = Command<
  'InviteMember',
  { organizationId: string; invite: string; email: Sealed; role: RoleOrGuest }
>;

/** What a team member may do in the team: an owner manages its members and title. */
export type TeamMemberRole = 'owner' | 'member';
export const TEAM_MEMBER_ROLES: readonly TeamMemberRole[] = ['owner', 'member'];
export const TEAM_TITLE_MAX = 64;

export type CreateTeam = Command<
  'CreateTeam',
  { organizationId: string; teamId: string; title: string; members: string[] }
>;
export type RenameTeam = Command<'RenameTeam', { organizationId: string; teamId: string; title: string }>;
export type DeleteTeam = Command<'DeleteTeam', { organizationId: string; teamId: string }>;
/** Adds, removes and re-roles team members in one step (PUT .../teams/{teamId}/members). */
export type ChangeTeamMembers = Command<
  'ChangeTeamMembers',
  {
    organizationId: string;
    teamId: string;
    add: string[];
    remove: string[];
    roles: Readonly<Record<string, TeamMemberRole>>;
  }
>;
/** Puts one member in a team with a role (the default: member), or changes the role of one already in it. */
export type SetTeamMember = Command<
  'SetTeamMember',
  { organizationId: string; teamId: string; userId: string; role?: TeamMemberRole }
>;
export type RemoveTeamMember = Command<'RemoveTeamMember', { organizationId: string; teamId: string; userId: string }>;

/** What an invite link gives: a role in the organization, or a level on one space or collection (as a guest). */
export type LinkGrant = { role: RoleOrGuest } | { level: Role; target: { kind: 'space' | 'collection'; id: string } };

/**
 * `linkId` is the SHA-256 of the link's secret (its id in the API), never the secret: the events do not let anyone
 * who reads them use a link.
 */
export type CreateInviteLink = Command<
  'CreateInviteLink',
  { organizationId: string; linkId: string; grant: LinkGrant }
>;
export type ChangeInviteLink = Command<
  'ChangeInviteLink',
  { organizationId: string; linkId: string; change: { role: RoleOrGuest } | { level: Role } }
>;
export type DeleteInviteLink = Command<'DeleteInviteLink', { organizationId: string; linkId: string }>;
/** Someone holding the link takes it: they join with its role, or as a guest when it is a content link. */
export type AcceptInviteLink = Command<
  'AcceptInviteLink',
  { organizationId: string; linkId: string; member: MemberIdentity }
>;

/** Limits of a SAML provider's settings (the spec's, in code points). */
export const SAML_LABEL_MAX = 30;
export const SAML_ENTITY_ID_MAX = 1024;
export const SAML_CERTIFICATE_MAX = 10000;
export const SAML_SSO_URL_MAX = 2048;

/**
 * A SAML provider's settings. `entityID`, `certificate` and `ssoURL` may be left unset (or cleared with an empty
 * string): the provider stays pending until all three are set. The application checks, before deciding, that a
 * certificate parses as X.509 and that `ssoURL` is a URL.
 */
export type SamlProviderSettings = {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: RoleOrGuest;
};

export type CreateSamlProvider = Command<
  'CreateSamlProvider',
  { organizationId: string; providerId: string; settings: SamlProviderSettings & { label: string } }
>;
export type ChangeSamlProvider = Command<
  'ChangeSamlProvider',
  { organizationId: string; providerId: string; changes: SamlProviderSettings }
>;
export type DeleteSamlProvider = Command<'DeleteSamlProvider', { organizationId: string; providerId: string }>;
/**
 * Someone whose identity an active provider asserted signs in: a newcomer joins with the provider's default role,
 * and into its default team when it still exists; an existing member keeps their role and teams.
 */
export type SignInWithSaml = Command<
  'SignInWithSaml',
  { organizationId: string; providerId: string; member: MemberIdentity }
>;

export type OrganizationCommand =
  | CreateSamlProvider
  | ChangeSamlProvider
  | DeleteSamlProvider
  | SignInWithSaml
  | CreateInviteLink
  | ChangeInviteLink
  | DeleteInviteLink
  | AcceptInviteLink
  | CreateOrganization
  | UpdateOrganization
  | AddMember
  | ChangeMemberRole
  | RemoveMember
  | InviteMember
  | CreateTeam
  | RenameTeam
  | DeleteTeam
  | ChangeTeamMembers
  | SetTeamMember
  | RemoveTeamMember;

export type OrganizationCreated = DomainEvent<
  'OrganizationCreated',
  {
    organizationId: string;
    title: string;
    type: OrganizationType;
    emailDomains: string[];
    createdBy: string;
    createdAt: string;
  }
>;
export type OrganizationUpdated = DomainEvent<
  'OrganizationUpdated',
  { organizationId: string; changes: OrganizationChanges; updatedAt: string }
>;
/**
 * `samlProviderId` (optional, since SAML sign-in): the member joined by signing in through that provider.
 * `invite` (optional): the key of the address whose pending invite the member took up.
 */
export type MemberJoined = DomainEvent<
  'MemberJoined',
  {
    organizationId: string;
    userId: string;
    role: RoleOrGuest;
    joinedAt: string;
    samlProviderId?: string;
    invite?: string;
  }
>;
export type MemberRoleChanged = DomainEvent<
  'MemberRoleChanged',
  { organizationId: string; userId: string; role: RoleOrGuest; previousRole: RoleOrGuest; changedAt: string }
>;
export type MemberRemoved = DomainEvent<'MemberRemoved', { organizationId: string; userId: string; removedAt: string }>;
export type MemberInvited = DomainEvent<
  'MemberInvited',
  { organizationId: string; invite: string; email: PersonalText; role: RoleOrGuest; invitedAt: string }
>;
export type TeamCreated = DomainEvent<
  'TeamCreated',
  { organizationId: string; teamId: string; title: string; createdAt: string }
>;
export type TeamRenamed = DomainEvent<
  'TeamRenamed',
  { organizationId: string; teamId: string; title: string; renamedAt: string }
>;
/** Preceded, in the same append, by a `TeamMemberRemoved` for each member the team still had. */
export type TeamDeleted = DomainEvent<'TeamDeleted', { organizationId: string; teamId: string; deletedAt: string }>;
export type TeamMemberAdded = DomainEvent<
  'TeamMemberAdded',
  { organizationId: string; teamId: string; userId: string; role: TeamMemberRole; addedAt: string }
>;
export type TeamMemberRoleChanged = DomainEvent<
  'TeamMemberRoleChanged',
  { organizationId: string; teamId: string; userId: string; role: TeamMemberRole; changedAt: string }
>;
export type TeamMemberRemoved = DomainEvent<
  'TeamMemberRemoved',
  { organizationId: string; teamId: string; userId: string; removedAt: string }
>;
export type TeamEvent =
  TeamCreated | TeamRenamed | TeamDeleted | TeamMemberAdded | TeamMemberRoleChanged | TeamMemberRemoved;

export type InviteLinkCreated = DomainEvent<
  'InviteLinkCreated',
  { organizationId: string; linkId: string; grant: LinkGrant; createdAt: string }
>;
export type InviteLinkChanged = DomainEvent<
  'InviteLinkChanged',
  { organizationId: string; linkId: string; grant: LinkGrant; changedAt: string }
>;
export type InviteLinkDeleted = DomainEvent<
  'InviteLinkDeleted',
  { organizationId: string; linkId: string; deletedAt: string }
>;
export type InviteLinkEvent = InviteLinkCreated | InviteLinkChanged | InviteLinkDeleted;

export type SamlProviderCreated = DomainEvent<
  'SamlProviderCreated',
  { organizationId: string; providerId: string; settings: SamlProviderSettings & { label: string }; createdAt: string }
>;
export type SamlProviderChanged = DomainEvent<
  'SamlProviderChanged',
  { organizationId: string; providerId: string; changes: SamlProviderSettings; changedAt: string }
>;
export type SamlProviderDeleted = DomainEvent<
  'SamlProviderDeleted',
  { organizationId: string; providerId: string; deletedAt: string }
>;
export type SamlProviderEvent = SamlProviderCreated | SamlProviderChanged | SamlProviderDeleted;

export type OrganizationEvent =
  | SamlProviderEvent
  | InviteLinkEvent
  | OrganizationCreated
  | OrganizationUpdated
  | MemberJoined
  | MemberRoleChanged
  | MemberRemoved
  | MemberInvited
  | TeamEvent;

/**
 * Only what decisions need: who the members are (for the last-admin rule) and the pending invites (by the key of
 * the invited address).
 */
export type OrganizationState =
  | { status: 'absent' }
  | {
      status: 'active';
      organizationId: string;
      members: Readonly<Record<string, RoleOrGuest>>;
      invites: Readonly<Record<string, RoleOrGuest>>;
      /** Each team's members with their role in it. */
      teams: Readonly<Record<string, Readonly<Record<string, TeamMemberRole>>>>;
      /** Whether invite links are turned on, and the live links by their id (the hash of their secret). */
      inviteLinks: boolean;
      links: Readonly<Record<string, LinkGrant>>;
      /** Each SAML provider: what a sign-in through it gives, and which of the settings it needs are set. */
      samlProviders: Readonly<Record<string, SamlProviderState>>;
    };

export type SamlProviderState = {
  defaultRole: RoleOrGuest;
  defaultTeam?: string;
  entityID: boolean;
  certificate: boolean;
  ssoURL: boolean;
};

/** A provider can sign people in once its IdP entity id, certificate and sign-in URL are all set. */
export const samlProviderActive = (provider: SamlProviderState) =>
  provider.entityID && provider.certificate && provider.ssoURL;

type ActiveOrganization = Extract<OrganizationState, { status: 'active' }>;

const admins = (state: ActiveOrganization) => Object.values(state.members).filter((role) => role === 'admin').length;

function requireActive(state: OrganizationState, organizationId: string): ActiveOrganization {
  if (state.status !== 'active') throw new NotFound(`Organization ${organizationId} not found`);
  return state;
}

function validTitle(title: string): string {
  const trimmed = title.trim();
  if (characterCount(trimmed) < 2 || characterCount(title) > 255)
    throw new ValidationFailed('title must have 2 to 255 characters');
  return title;
}

function validTeamTitle(title: string): string {
  if (title.trim().length < 1 || title.length > TEAM_TITLE_MAX)
    throw new ValidationFailed(`title must have 1 to ${TEAM_TITLE_MAX} characters`);
  return title;
}

function requireTeam(organization: ActiveOrganization, teamId: string) {
  const team = organization.teams[teamId];
  if (!team) throw new NotFound(`Team ${teamId} not found`);
  return team;
}

/** Team members must be members of the organization (guests included). */
function requireMembers(organization: ActiveOrganization, userIds: readonly string[]): void {
  const strangers = userIds.filter((userId) => !(userId in organization.members));
  if (strangers.length > 0) throw new ValidationFailed(`not members of the organization: ${strangers.join(', ')}`);
}

function requireInviteLinks(state: OrganizationState, organizationId: string): ActiveOrganization {
  const organization = requireActive(state, organizationId);
  if (!organization.inviteLinks) throw new IllegalState('invite links are turned off in this organization');
  return organization;
}

function requireLink(organization: ActiveOrganization, linkId: string): LinkGrant {
  const link = organization.links[linkId];
  if (!link) throw new NotFound('Invite link not found');
  return link;
}

function requireSamlProvider(organization: ActiveOrganization, providerId: string): SamlProviderState {
  const provider = organization.samlProviders[providerId];
  if (!provider) throw new NotFound(`SAML provider ${providerId} not found`);
  return provider;
}

/** Checks the limits of the settings given (in code points) and that a default team is one of the organization's. */
function validSamlSettings<S extends SamlProviderSettings>(organization: ActiveOrganization, settings: S): S {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) if (value !== undefined) result[key] = value;
  const { label, entityID, certificate, ssoURL, defaultTeam } = result as SamlProviderSettings;
  if (label !== undefined && (label.trim().length === 0 || characterCount(label) > SAML_LABEL_MAX))
    throw new ValidationFailed(`label must have 1 to ${SAML_LABEL_MAX} characters`);
  if (entityID !== undefined && characterCount(entityID) > SAML_ENTITY_ID_MAX)
    throw new ValidationFailed(`entityID must have at most ${SAML_ENTITY_ID_MAX} characters`);
  if (certificate !== undefined && characterCount(certificate) > SAML_CERTIFICATE_MAX)
    throw new ValidationFailed(`certificate must have at most ${SAML_CERTIFICATE_MAX} characters`);
  if (ssoURL !== undefined && characterCount(ssoURL) > SAML_SSO_URL_MAX)
    throw new ValidationFailed(`ssoURL must have at most ${SAML_SSO_URL_MAX} characters`);
  if (defaultTeam !== undefined && !(defaultTeam in organization.teams))
    throw new ValidationFailed(`defaultTeam ${defaultTeam} is not a team of this organization`);
  return result as S;
}

function withSamlSettings(provider: SamlProviderState, settings: SamlProviderSettings): SamlProviderState {
  const next = { ...provider };
  if (settings.defaultRole !== undefined) next.defaultRole = settings.defaultRole;
  if (settings.defaultTeam !== undefined) next.defaultTeam = settings.defaultTeam;
  if (settings.entityID !== undefined) next.entityID = settings.entityID !== '';
  if (settings.certificate !== undefined) next.certificate = settings.certificate !== '';
  if (settings.ssoURL !== undefined) next.ssoURL = settings.ssoURL !== '';
  return next;
}

/** The fields the request actually set (display settings are not in the state, so every given field is recorded). */
function definedChanges(changes: OrganizationChanges): OrganizationChanges {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) result[key] = value;
  if (typeof result.title === 'string') validTitle(result.title);
  return result as OrganizationChanges;
}

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'CreateOrganization': {
        if (state.status !== 'absent') throw new IllegalState(`organization ${command.data.organizationId} exists`);
        const { organizationId, createdBy } = command.data;
        return [
          {
            type: 'OrganizationCreated',
            data: {
              organizationId,
              title: validTitle(command.data.title),
              type: command.data.type ?? 'business',
              emailDomains: command.data.emailDomains ?? [],
              createdBy: createdBy.userId,
              createdAt: now,
            },
          },
          { type: 'MemberJoined', data: { organizationId, userId: createdBy.userId, role: 'admin', joinedAt: now } },
        ];
      }
      case 'UpdateOrganization': {
        requireActive(state, command.data.organizationId);
        const changes = definedChanges(command.data.changes);
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'OrganizationUpdated',
            data: { organizationId: command.data.organizationId, changes, updatedAt: now },
          },
        ];
      }
      case 'AddMember': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, userId, role, invite } = command.data;
        if (userId in organization.members) return [];
        return [
          {
            type: 'MemberJoined',
            data: { organizationId, userId, role, joinedAt: now, ...(invite !== undefined ? { invite } : {}) },
          },
        ];
      }
      case 'ChangeMemberRole': {
        const organization = requireActive(state, command.data.organizationId);
        const { userId, role } = command.data;
        if (!(userId in organization.members)) throw new NotFound(`Member ${userId} not found`);
        const previousRole = organization.members[userId];
        if (previousRole === role) return [];
        if (previousRole === 'admin' && admins(organization) === 1) {
          throw new IllegalState('the last admin of an organization cannot be demoted');
        }
        return [{ type: 'MemberRoleChanged', data: { ...command.data, previousRole, changedAt: now } }];
      }
      case 'RemoveMember': {
        const organization = requireActive(state, command.data.organizationId);
        const { userId } = command.data;
        if (!(userId in organization.members)) return [];
        if (organization.members[userId] === 'admin' && admins(organization) === 1) {
          throw new IllegalState('the last admin of an organization cannot be removed');
        }
        // The member leaves every team first, so that no team keeps someone who is no longer a member.
        const leaves: OrganizationEvent[] = Object.entries(organization.teams)
          .filter(([, team]) => userId in team)
          .map(([teamId]) => ({
            type: 'TeamMemberRemoved',
            data: { organizationId: command.data.organizationId, teamId, userId, removedAt: now },
          }));
        return [...leaves, { type: 'MemberRemoved', data: { ...command.data, removedAt: now } }];
      }
      case 'InviteMember': {
        const organization = requireActive(state, command.data.organizationId);
        const { invite, role } = command.data;
        if (invite in organization.invites && organization.invites[invite] === role) return [];
        return [{ type: 'MemberInvited', data: { ...command.data, invitedAt: now } }];
      }
      case 'CreateSamlProvider': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, providerId } = command.data;
        if (providerId in organization.samlProviders) throw new IllegalState(`SAML provider ${providerId} exists`);
        const settings = validSamlSettings(organization, command.data.settings);
        return [{ type: 'SamlProviderCreated', data: { organizationId, providerId, settings, createdAt: now } }];
      }
      case 'ChangeSamlProvider': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, providerId } = command.data;
        requireSamlProvider(organization, providerId);
        const changes = validSamlSettings(organization, command.data.changes);
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'SamlProviderChanged', data: { organizationId, providerId, changes, changedAt: now } }];
      }
      case 'DeleteSamlProvider': {
        const organization = requireActive(state, command.data.organizationId);
        if (!(command.data.providerId in organization.samlProviders)) return [];
        return [{ type: 'SamlProviderDeleted', data: { ...command.data, deletedAt: now } }];
      }
      case 'SignInWithSaml': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, providerId, member } = command.data;
        const provider = requireSamlProvider(organization, providerId);
        if (!samlProviderActive(provider)) throw new IllegalState('this SAML provider is not fully configured');
        if (member.userId in organization.members) return [];
        const events: OrganizationEvent[] = [
          {
            type: 'MemberJoined',
            data: {
              organizationId,
              userId: member.userId,
              role: provider.defaultRole,
              joinedAt: now,
              samlProviderId: providerId,
            },
          },
        ];
        const teamId = provider.defaultTeam;
        if (teamId && teamId in organization.teams)
          events.push({
            type: 'TeamMemberAdded',
            data: { organizationId, teamId, userId: member.userId, role: 'member', addedAt: now },
          });
        return events;
      }
      case 'CreateInviteLink': {
        const organization = requireInviteLinks(state, command.data.organizationId);
        if (command.data.linkId in organization.links) throw new IllegalState('invite link exists');
        return [{ type: 'InviteLinkCreated', data: { ...command.data, createdAt: now } }];
      }
      case 'ChangeInviteLink': {
        const organization = requireInviteLinks(state, command.data.organizationId);
        const { organizationId, linkId, change } = command.data;
        const link = requireLink(organization, linkId);
        let grant: LinkGrant;
        if ('role' in change) {
          if (!('role' in link)) throw new ValidationFailed('a link to a space or collection has a level, not a role');
          if (link.role === change.role) return [];
          grant = { role: change.role };
        } else {
          if (!('level' in link)) throw new ValidationFailed('a link to the organization has a role, not a level');
          if (link.level === change.level) return [];
          grant = { level: change.level, target: link.target };
        }
        return [{ type: 'InviteLinkChanged', data: { organizationId, linkId, grant, changedAt: now } }];
      }
      case 'DeleteInviteLink': {
        const organization = requireInviteLinks(state, command.data.organizationId);
        if (!(command.data.linkId in organization.links)) return [];
        return [{ type: 'InviteLinkDeleted', data: { ...command.data, deletedAt: now } }];
      }
      case 'AcceptInviteLink': {
        const organization = requireInviteLinks(state, command.data.organizationId);
        const { organizationId, linkId, member } = command.data;
        const link = requireLink(organization, linkId);
        // A content link makes a newcomer a guest; its level on the content is granted by the content context.
        const role = 'role' in link ? link.role : null;
        if (!(member.userId in organization.members)) {
          return [{ type: 'MemberJoined', data: { organizationId, userId: member.userId, role, joinedAt: now } }];
        }
        const previousRole = organization.members[member.userId];
        // Accepting never lowers a role.
        if (roleRank(role) <= roleRank(previousRole)) return [];
        return [
          {
            type: 'MemberRoleChanged',
            data: { organizationId, userId: member.userId, role, previousRole, changedAt: now },
          },
        ];
      }
      case 'CreateTeam': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, teamId, members } = command.data;
        if (teamId in organization.teams) throw new IllegalState(`team ${teamId} exists`);
        const title = validTeamTitle(command.data.title);
        const unique = [...new Set(members)];
        requireMembers(organization, unique);
        return [
          { type: 'TeamCreated', data: { organizationId, teamId, title, createdAt: now } },
          ...unique.map((userId): TeamMemberAdded => ({
            type: 'TeamMemberAdded',
            data: { organizationId, teamId, userId, role: 'member', addedAt: now },
          })),
        ];
      }
      case 'RenameTeam': {
        const organization = requireActive(state, command.data.organizationId);
        requireTeam(organization, command.data.teamId);
        const title = validTeamTitle(command.data.title);
        return [{ type: 'TeamRenamed', data: { ...command.data, title, renamedAt: now } }];
      }
      case 'DeleteTeam': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, teamId } = command.data;
        const team = organization.teams[teamId];
        if (!team) return [];
        return [
          ...Object.keys(team).map((userId): TeamMemberRemoved => ({
            type: 'TeamMemberRemoved',
            data: { organizationId, teamId, userId, removedAt: now },
          })),
          { type: 'TeamDeleted', data: { organizationId, teamId, deletedAt: now } },
        ];
      }
      case 'ChangeTeamMembers': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, teamId, add, remove, roles } = command.data;
        const team = requireTeam(organization, teamId);
        const removing = new Set(remove);
        const adding = [...new Set([...add, ...Object.keys(roles)])].filter((userId) => !removing.has(userId));
        requireMembers(organization, adding);
        const events: OrganizationEvent[] = [];
        for (const userId of adding) {
          const role = roles[userId];
          if (!(userId in team)) {
            events.push({
              type: 'TeamMemberAdded',
              data: { organizationId, teamId, userId, role: role ?? 'member', addedAt: now },
            });
          } else if (role && team[userId] !== role) {
            events.push({
              type: 'TeamMemberRoleChanged',
              data: { organizationId, teamId, userId, role, changedAt: now },
            });
          }
        }
        for (const userId of removing) {
          if (userId in team)
            events.push({ type: 'TeamMemberRemoved', data: { organizationId, teamId, userId, removedAt: now } });
        }
        return events;
      }
      case 'SetTeamMember': {
        const organization = requireActive(state, command.data.organizationId);
        const { organizationId, teamId, userId, role } = command.data;
        const team = requireTeam(organization, teamId);
        requireMembers(organization, [userId]);
        if (!(userId in team)) {
          return [
            {
              type: 'TeamMemberAdded',
              data: { organizationId, teamId, userId, role: role ?? 'member', addedAt: now },
            },
          ];
        }
        if (!role || team[userId] === role) return [];
        return [{ type: 'TeamMemberRoleChanged', data: { organizationId, teamId, userId, role, changedAt: now } }];
      }
      case 'RemoveTeamMember': {
        const organization = requireActive(state, command.data.organizationId);
        const team = requireTeam(organization, command.data.teamId);
        if (!(command.data.userId in team)) return [];
        return [{ type: 'TeamMemberRemoved', data: { ...command.data, removedAt: now } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return {
          status: 'active',
          organizationId: event.data.organizationId,
          members: {},
          invites: {},
          teams: {},
          inviteLinks: false,
          links: {},
          samlProviders: {},
        };
      case 'SamlProviderCreated':
        if (state.status !== 'active') return state;
        return {
          ...state,
          samlProviders: {
            ...state.samlProviders,
            [event.data.providerId]: withSamlSettings(
              { defaultRole: null, entityID: false, certificate: false, ssoURL: false },
              event.data.settings,
            ),
          },
        };
      case 'SamlProviderChanged': {
        if (state.status !== 'active') return state;
        const provider = state.samlProviders[event.data.providerId];
        if (!provider) return state;
        return {
          ...state,
          samlProviders: {
            ...state.samlProviders,
            [event.data.providerId]: withSamlSettings(provider, event.data.changes),
          },
        };
      }
      case 'SamlProviderDeleted': {
        if (state.status !== 'active') return state;
        const samlProviders = { ...state.samlProviders };
        delete samlProviders[event.data.providerId];
        return { ...state, samlProviders };
      }
      case 'OrganizationUpdated':
        if (state.status !== 'active' || event.data.changes.inviteLinks === undefined) return state;
        return { ...state, inviteLinks: event.data.changes.inviteLinks };
      case 'InviteLinkCreated':
      case 'InviteLinkChanged':
        if (state.status !== 'active') return state;
        return { ...state, links: { ...state.links, [event.data.linkId]: event.data.grant } };
      case 'InviteLinkDeleted': {
        if (state.status !== 'active') return state;
        const links = { ...state.links };
        delete links[event.data.linkId];
        return { ...state, links };
      }
      case 'MemberJoined': {
        if (state.status !== 'active') return state;
        const invites = { ...state.invites };
        if (event.data.invite !== undefined) delete invites[event.data.invite];
        return { ...state, members: { ...state.members, [event.data.userId]: event.data.role }, invites };
      }
      case 'MemberRoleChanged':
        if (state.status !== 'active') return state;
        return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
      case 'MemberRemoved': {
        if (state.status !== 'active') return state;
        const members = { ...state.members };
        delete members[event.data.userId];
        return { ...state, members };
      }
      case 'MemberInvited':
        if (state.status !== 'active') return state;
        return { ...state, invites: { ...state.invites, [event.data.invite]: event.data.role } };
      case 'TeamCreated':
        if (state.status !== 'active') return state;
        return { ...state, teams: { ...state.teams, [event.data.teamId]: {} } };
      case 'TeamRenamed':
        return state;
      case 'TeamDeleted': {
        if (state.status !== 'active') return state;
        const teams = { ...state.teams };
        delete teams[event.data.teamId];
        return { ...state, teams };
      }
      case 'TeamMemberAdded':
      case 'TeamMemberRoleChanged': {
        if (state.status !== 'active') return state;
        const team = state.teams[event.data.teamId] ?? {};
        return {
          ...state,
          teams: { ...state.teams, [event.data.teamId]: { ...team, [event.data.userId]: event.data.role } },
        };
      }
      case 'TeamMemberRemoved': {
        if (state.status !== 'active') return state;
        const team = { ...state.teams[event.data.teamId] };
        delete team[event.data.userId];
        return { ...state, teams: { ...state.teams, [event.data.teamId]: team } };
      }
      default:
        return state;
    }
  },
};
