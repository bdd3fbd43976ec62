import { type Projection } from '@app/kernel';
import {
  type SpaceCreated,
  type SpaceDeleted,
  type SpaceMoved,
  type SpaceRestored,
  type SpaceRevisionChanged,
  type SpaceTransferred,
  type SpaceUpdated,
} from '../domain';
import { SPACES, type SpaceDoc } from '../application/read-models';

/** Spaces with their counters; a deleted space stays (flagged) until it is purged. */
export const spacesProjection: Projection<SpaceDoc> = {
  name: 'spaces',
  version: 1,
  collection: SPACES,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['deleted', 1],
        ['createdAt', 1],
      ],
    },
    {
      fields: [
        ['parent', 1],
        ['deleted', 1],
        ['sortKey', 1],
      ],
    },
    {
      fields: [
        ['organizationId', 1],
        ['parent', 1],
        ['sortKey', 1],
      ],
    },
  ],
  handles: [
    'SpaceCreated',
    'SpaceRevisionChanged',
    'SpaceUpdated',
    'SpaceMoved',
    'SpaceTransferred',
    'SpaceDeleted',
    'SpaceRestored',
    'SpacePurged',
  ],
  idOf: (event) => String(event.data.spaceId),
  evolve(doc, event) {
    if (event.type === 'SpaceCreated') {
      const data = event.data as SpaceCreated['data'];
      return {
        id: data.spaceId,
        organizationId: data.organizationId,
        parent: data.parent,
        title: data.title,
        emoji: data.emoji,
        editMode: data.editMode,
        defaultLevel: data.defaultLevel,
        revision: data.revisionId,
        sortKey: data.sortKey,
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        deleted: false,
        version: event.revision,
      };
    }
    if (!doc) return null;
    const version = event.revision;
    switch (event.type) {
      case 'SpaceUpdated': {
        const data = event.data as SpaceUpdated['data'];
        return { ...doc, ...data.changes, updatedAt: data.updatedAt, version };
      }
      case 'SpaceRevisionChanged': {
        const data = event.data as SpaceRevisionChanged['data'];
        return { ...doc, revision: data.revisionId, updatedAt: data.changedAt, version };
      }
      case 'SpaceMoved': {
        const data = event.data as SpaceMoved['data'];
        return { ...doc, parent: data.parent, sortKey: data.sortKey, updatedAt: data.movedAt, version };
      }
      case 'SpaceTransferred': {
        const data = event.data as SpaceTransferred['data'];
        return {
          ...doc,
          organizationId: data.organizationId,
          parent: data.parent,
          sortKey: data.sortKey,
          updatedAt: data.transferredAt,
          version,
        };
      }
      case 'SpaceDeleted': {
        const data = event.data as SpaceDeleted['data'];
        return { ...doc, deleted: true, deletedAt: data.deletedAt, purgeAt: data.purgeAt, version };
      }
      case 'SpaceRestored': {
        const data = event.data as SpaceRestored['data'];
        const restored: SpaceDoc = { ...doc, deleted: false, parent: data.parent, updatedAt: data.restoredAt, version };
        delete restored.deletedAt;
        delete restored.purgeAt;
        return restored;
      }
      default:
        return null; // SpacePurged: gone for good from the API (its history stays in the event store)
    }
  },
};
