import { type RoleOrGuest } from '@app/kernel/domain';
import { collectionPermissions, spacePermissions } from './content-permissions';

type Row = [role: RoleOrGuest, expected: ReturnType<typeof spacePermissions>];

describe('collection permissions', () => {
  it.each<[RoleOrGuest, ReturnType<typeof collectionPermissions>]>([
    ['admin', { view: true, admin: true, viewInviteLinks: true, create: true }],
    ['create', { view: true, admin: false, viewInviteLinks: false, create: true }],
    ['review', { view: true, admin: false, viewInviteLinks: false, create: false }],
    ['edit', { view: true, admin: false, viewInviteLinks: false, create: false }],
    ['comment', { view: true, admin: false, viewInviteLinks: false, create: false }],
    ['read', { view: true, admin: false, viewInviteLinks: false, create: false }],
    [null, { view: false, admin: false, viewInviteLinks: false, create: false }],
  ])('%s', (role, expected) => {
    expect(collectionPermissions(role)).toEqual(expected);
  });
});

describe('space permissions', () => {
  const none = {
    view: false,
    access: false,
    admin: false,
    viewInviteLinks: false,
    edit: false,
    triggerGitSync: false,
    comment: false,
    merge: false,
    review: false,
    installIntegration: false,
  };
  const read = { ...none, view: true, access: true };
  const comment = { ...read, comment: true };
  const edit = { ...comment, edit: true, triggerGitSync: true };
  const review = { ...edit, review: true, merge: true };
  const create = review;
  const admin = { ...create, admin: true, viewInviteLinks: true, installIntegration: true };

  describe('of a live space', () => {
    it.each<Row>([
      ['admin', admin],
      ['create', create],
      ['review', review],
      ['edit', edit],
      ['comment', comment],
      ['read', read],
      [null, none],
    ])('%s', (role, expected) => {
      expect(spacePermissions(role, false)).toEqual(expected);
    });
  });

  describe('of a locked space: nobody edits, merges or syncs, not even an admin', () => {
    const frozen = { edit: false, merge: false, triggerGitSync: false };
    it.each<Row>([
      ['admin', { ...admin, ...frozen }],
      ['create', { ...create, ...frozen }],
      ['review', { ...review, ...frozen }],
      ['edit', { ...edit, ...frozen }],
      ['comment', comment],
      ['read', read],
      [null, none],
    ])('%s', (role, expected) => {
      expect(spacePermissions(role, true)).toEqual(expected);
    });
  });
});
