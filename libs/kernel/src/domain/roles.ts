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
