import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { collectionPermissions, spacePermissions } from '../domain';
import { type CollectionDoc, type SpaceDoc } from './read-models';
import { NO_ACTIVITY, type SpaceActivityCounts } from './space-activity';

/** The seed's Collection shape, with permissions for the caller's effective role. */
export function presentCollection(collection: CollectionDoc, role: RoleOrGuest, urls: PublicUrls) {
  return {
    object: 'collection' as const,
    id: collection.id,
    title: collection.title,
    ...(collection.description !== undefined ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parent ? { parent: collection.parent } : {}),
    defaultLevel: collection.defaultLevel,
    urls: {
      location: `${urls.api}/collections/${collection.id}`,
      app: `${urls.app}/o/${collection.organizationId}/c/${collection.id}`,
    },
    permissions: collectionPermissions(role),
  };
}

/** The seed's Space shape, with permissions for the caller's effective role and the counters of its activity. */
export function presentSpace(
  space: SpaceDoc,
  role: RoleOrGuest,
  urls: PublicUrls,
  activity: SpaceActivityCounts = NO_ACTIVITY,
) {
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    // no published sites yet: a space is private, or as visible as its collection
    visibility: space.parent ? ('in-collection' as const) : ('private' as const),
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    ...(space.deletedAt ? { deletedAt: space.deletedAt } : {}),
    editMode: space.editMode,
    urls: {
      location: `${urls.api}/spaces/${space.id}`,
      app: `${urls.app}/s/${space.id}`,
    },
    organization: space.organizationId,
    ...(space.parent ? { parent: space.parent } : {}),
    revision: space.revision,
    defaultLevel: space.defaultLevel,
    comments: activity.comments,
    changeRequests: activity.changeRequests,
    changeRequestsOpen: activity.changeRequestsOpen,
    changeRequestsDraft: activity.changeRequestsDraft,
    permissions: spacePermissions(role, space.editMode === 'locked'),
  };
}

export type CollectionBody = ReturnType<typeof presentCollection>;
export type SpaceBody = ReturnType<typeof presentSpace>;
