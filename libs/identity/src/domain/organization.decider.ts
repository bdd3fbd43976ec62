import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  type RoleOrGuest,
  ValidationFailed,
  assertNever,
  characterCount,
} from '@app/kernel/domain';

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

export type MemberIdentity = {
  userId: string;
  email: string;
  displayName: string;
};

export type CreateOrganization = Command<
  'CreateOrganization',
  { organizationId: string; title: string; createdBy: MemberIdentity; type?: OrganizationType; emailDomains?: string[] }
>;
export type UpdateOrganization = Command<
  'UpdateOrganization',
  { organizationId: string; changes: OrganizationChanges }
>;
export type AddMember = Command<'AddMember', { organizationId: string; role: RoleOrGuest } & MemberIdentity>;
export type ChangeMemberRole = Command<
  'ChangeMemberRole',
  { organizationId: string; userId: string; role: RoleOrGuest }
>;
export type RemoveMember = Command<'RemoveMember', { organizationId: string; userId: string }>;
export type InviteMember = Command<'InviteMember', { organizationId: string; email: string; role: RoleOrGuest }>;
export type OrganizationCommand =
  CreateOrganization | UpdateOrganization | AddMember | ChangeMemberRole | RemoveMember | InviteMember;

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
export type MemberJoined = DomainEvent<
  'MemberJoined',
  { organizationId: string; role: RoleOrGuest; joinedAt: string } & MemberIdentity
>;
export type MemberRoleChanged = DomainEvent<
  'MemberRoleChanged',
  { organizationId: string; userId: string; role: RoleOrGuest; previousRole: RoleOrGuest; changedAt: string }
>;
export type MemberRemoved = DomainEvent<'MemberRemoved', { organizationId: string; userId: string; removedAt: string }>;
export type MemberInvited = DomainEvent<
  'MemberInvited',
  { organizationId: string; email: string; role: RoleOrGuest; invitedAt: string }
>;
export type OrganizationEvent =
  OrganizationCreated | OrganizationUpdated | MemberJoined | MemberRoleChanged | MemberRemoved | MemberInvited;

/** Only what decisions need: who the members are (for the last-admin rule) and the pending invites. */
export type OrganizationState =
  | { status: 'absent' }
  | {
      status: 'active';
      organizationId: string;
      members: Readonly<Record<string, RoleOrGuest>>;
      invites: Readonly<Record<string, RoleOrGuest>>;
    };

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
          { type: 'MemberJoined', data: { organizationId, ...createdBy, role: 'admin', joinedAt: now } },
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
        if (command.data.userId in organization.members) return [];
        return [{ type: 'MemberJoined', data: { ...command.data, joinedAt: now } }];
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
        return [{ type: 'MemberRemoved', data: { ...command.data, removedAt: now } }];
      }
      case 'InviteMember': {
        const organization = requireActive(state, command.data.organizationId);
        const { email, role } = command.data;
        if (email in organization.invites && organization.invites[email] === role) return [];
        return [{ type: 'MemberInvited', data: { ...command.data, invitedAt: now } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { status: 'active', organizationId: event.data.organizationId, members: {}, invites: {} };
      case 'OrganizationUpdated':
        return state;
      case 'MemberJoined': {
        if (state.status !== 'active') return state;
        const invites = { ...state.invites };
        delete invites[event.data.email];
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
        return { ...state, invites: { ...state.invites, [event.data.email]: event.data.role } };
      default:
        return state;
    }
  },
};
