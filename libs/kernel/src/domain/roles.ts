/** The seed's role order, strongest first. */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];
/** A role or null (a guest, or no access granted at this level). */
export type RoleOrGuest = Role | null;

const rank: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleRank(role: RoleOrGuest | undefined): number {
  return role ? rank[role] : 0;
}

/** True when `role` is at least `required`. */
export function atLeast(role: RoleOrGuest | undefined, required: Role): boolean {
  return roleRank(role) >= rank[required];
}

export function strongest(...roles: (RoleOrGuest | undefined)[]): RoleOrGuest {
  let best: RoleOrGuest = null;
  for (const role of roles) if (roleRank(role) > roleRank(best)) best = role ?? null;
  return best;
}

/**
 * The level an object (collection, space) grants every member of its organization through its `defaultLevel`:
 * a role, `inherit` (whatever its parent grants), or null (nothing by default).
 */
export type DefaultLevel = Role | 'inherit' | null;

export const DEFAULT_LEVELS: readonly (Role | 'inherit')[] = [...ROLES, 'inherit'];

/**
 * The default level in force on an object: walking from the object up to the organization, the first level that
 * is not `inherit`. The chain is given object first; its last element is the organization's own default.
 */
export function resolveDefaultLevel(chain: readonly DefaultLevel[]): RoleOrGuest {
  for (const level of chain) if (level !== 'inherit') return level;
  return null;
}

/** The caller's effective role on an object: the stronger of their organization role and the default in force. */
export function effectiveRole(organizationRole: RoleOrGuest | undefined, chain: readonly DefaultLevel[]): RoleOrGuest {
  return strongest(organizationRole, resolveDefaultLevel(chain));
}
