import { type RoleOrGuest, atLeast } from '@app/kernel/domain';

/** The Collection `permissions` object, from the caller's effective role on the collection. */
export function collectionPermissions(role: RoleOrGuest) {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

/**
 * The Space `permissions` object, from the caller's effective role; a locked space refuses edits to everyone.
 * Merging a change request needs the review role (editors propose, reviewers merge).
 */
export function spacePermissions(role: RoleOrGuest, locked: boolean) {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: !locked && atLeast(role, 'edit'),
    triggerGitSync: !locked && atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: !locked && atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}
