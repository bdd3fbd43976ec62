import { type Projection } from '@app/kernel';
import {
  type CollectionCreated,
  type CollectionMoved,
  type CollectionTransferred,
  type CollectionUpdated,
} from '../domain';
import { COLLECTIONS, type CollectionDoc } from '../application/read-models';

export const collectionsProjection: Projection<CollectionDoc> = {
  name: 'collections',
  version: 1,
  collection: COLLECTIONS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
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
  handles: ['CollectionCreated', 'CollectionUpdated', 'CollectionMoved', 'CollectionTransferred', 'CollectionDeleted'],
  idOf: (event) => String(event.data.collectionId),
  evolve(doc, event) {
    switch (event.type) {
      case 'CollectionCreated': {
        const data = event.data as CollectionCreated['data'];
        return {
          id: data.collectionId,
          organizationId: data.organizationId,
          parent: data.parent,
          title: data.title,
          ...(data.description !== undefined ? { description: data.description } : {}),
          defaultLevel: data.defaultLevel,
          sortKey: data.sortKey,
          createdAt: data.createdAt,
          updatedAt: data.createdAt,
          version: event.revision,
        };
      }
      case 'CollectionUpdated': {
        if (!doc) return null;
        const data = event.data as CollectionUpdated['data'];
        return { ...doc, ...data.changes, updatedAt: data.updatedAt, version: event.revision };
      }
      case 'CollectionMoved': {
        if (!doc) return null;
        const data = event.data as CollectionMoved['data'];
        return { ...doc, parent: data.parent, sortKey: data.sortKey, updatedAt: data.movedAt, version: event.revision };
      }
      case 'CollectionTransferred': {
        if (!doc) return null;
        const data = event.data as CollectionTransferred['data'];
        return {
          ...doc,
          organizationId: data.organizationId,
          parent: data.parent,
          sortKey: data.sortKey,
          updatedAt: data.transferredAt,
          version: event.revision,
        };
      }
      default:
        return null; // CollectionDeleted
    }
  },
};
