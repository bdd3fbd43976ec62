import { type Role, type RoleOrGuest } from '@app/kernel/domain';

/**
 * A port identity offers to the context that owns spaces and collections, for invite links to them: where a
 * target lives, how the caller sees it, and giving someone a level on it. Without an adapter, content links
 * cannot be made.
 */
export const CONTENT_INVITES = Symbol('CONTENT_INVITES');

export interface InviteTarget {
  kind: 'space' | 'collection';
  id: string;
}

export interface ContentInvites {
  /** The organization of a live space or collection, or undefined when there is none. */
  organizationOf(target: InviteTarget): Promise<string | undefined>;
  /** The target in the spec's shape (Space or Collection) for the caller, with the caller's role on it. */
  view(target: InviteTarget, userId: string): Promise<{ body: object; role: RoleOrGuest } | undefined>;
  /** Gives `userId` the level on the target, unless they already have at least as much there. */
  grant(
    actor: { userId: string; requestId?: string },
    organizationId: string,
    target: InviteTarget,
    userId: string,
    level: Role,
  ): Promise<void>;
}
