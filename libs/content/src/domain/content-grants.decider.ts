import {
  type Command,
  type Decider,
  type DomainEvent,
  NotFound,
  type Role,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';

/** What a grant is on: a space, or a collection (and through it, everything inside). */
export type GrantTarget = { kind: 'space' | 'collection'; id: string };
/** Who a grant is for: a member of the organization, or a team (everyone in it). */
export type Grantee = { kind: 'user' | 'team'; id: string };

/** The grants of one space or collection live in their own stream, beside the object's. */
export const grantsStream = (targetId: string) => `grants-${targetId}`;
/** Grants are kept per organization: a space moved to another organization takes none of its old grants along. */
export const granteeKey = (organizationId: string, grantee: Grantee) =>
  `${organizationId}:${grantee.kind}:${grantee.id}`;

/** The most users and teams one request may grant at once. */
export const MAX_GRANTEES = 100;

export type GrantAccess = Command<
  'GrantAccess',
  { organizationId: string; target: GrantTarget; grantees: Grantee[]; role: Role }
>;
export type ChangeGrant = Command<
  'ChangeGrant',
  { organizationId: string; target: GrantTarget; grantee: Grantee; role: Role }
>;
export type RevokeGrant = Command<'RevokeGrant', { organizationId: string; target: GrantTarget; grantee: Grantee }>;
export type GrantCommand = GrantAccess | ChangeGrant | RevokeGrant;

/** A user or team gets a role on a space or collection (or another role than the one they had there). */
export type AccessGranted = DomainEvent<
  'AccessGranted',
  { organizationId: string; target: GrantTarget; grantee: Grantee; role: Role; previousRole?: Role; grantedAt: string }
>;
export type AccessRevoked = DomainEvent<
  'AccessRevoked',
  { organizationId: string; target: GrantTarget; grantee: Grantee; revokedAt: string }
>;
export type GrantEvent = AccessGranted | AccessRevoked;

/** Only what decisions need: each grantee's role. */
export type GrantsState = { status: 'open'; roles: Readonly<Record<string, Role>> };

function grant(
  state: GrantsState,
  data: { organizationId: string; target: GrantTarget; grantee: Grantee; role: Role },
  now: string,
): AccessGranted[] {
  const previousRole = state.roles[granteeKey(data.organizationId, data.grantee)];
  if (previousRole === data.role) return [];
  return [
    {
      type: 'AccessGranted',
      data: { ...data, ...(previousRole ? { previousRole } : {}), grantedAt: now },
    },
  ];
}

export const grantsDecider: Decider<GrantsState, GrantCommand, GrantEvent> = {
  initialState: () => ({ status: 'open', roles: {} }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'GrantAccess': {
        const { organizationId, target, role } = command.data;
        if (command.data.grantees.length === 0) throw new ValidationFailed('give at least one user or team');
        if (command.data.grantees.length > MAX_GRANTEES)
          throw new ValidationFailed(`give at most ${MAX_GRANTEES} users and teams at once`);
        const unique = new Map(command.data.grantees.map((grantee) => [granteeKey(organizationId, grantee), grantee]));
        return [...unique.values()].flatMap((grantee) => grant(state, { organizationId, target, grantee, role }, now));
      }
      case 'ChangeGrant':
        if (!(granteeKey(command.data.organizationId, command.data.grantee) in state.roles))
          throw new NotFound(`The ${command.data.grantee.kind} ${command.data.grantee.id} has no access granted here`);
        return grant(state, command.data, now);
      case 'RevokeGrant':
        if (!(granteeKey(command.data.organizationId, command.data.grantee) in state.roles)) return [];
        return [{ type: 'AccessRevoked', data: { ...command.data, revokedAt: now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccessGranted':
        return {
          ...state,
          roles: { ...state.roles, [granteeKey(event.data.organizationId, event.data.grantee)]: event.data.role },
        };
      case 'AccessRevoked': {
        const roles = { ...state.roles };
        delete roles[granteeKey(event.data.organizationId, event.data.grantee)];
        return { ...state, roles };
      }
      default:
        return state;
    }
  },
};
