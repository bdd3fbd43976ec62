import {
  type Command,
  type Decider,
  type DefaultLevel,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
  characterCount,
} from '@app/kernel/domain';
import { DESCRIPTION_MAX, TITLE_MAX } from './levels';

export const collectionStream = (collectionId: string) => `collection-${collectionId}`;

export type CollectionChanges = {
  title?: string;
  description?: string;
  defaultLevel?: DefaultLevel;
};

/** Where a collection sits: its parent (null: the organization's top level) and its order among siblings. */
export type Placement = { parent: string | null; sortKey: number };

export type CreateCollection = Command<
  'CreateCollection',
  { collectionId: string; organizationId: string; title: string; description?: string } & Placement
>;
export type UpdateCollection = Command<'UpdateCollection', { collectionId: string; changes: CollectionChanges }>;
export type MoveCollection = Command<'MoveCollection', { collectionId: string } & Placement>;
export type TransferCollection = Command<
  'TransferCollection',
  { collectionId: string; organizationId: string } & Placement
>;
export type DeleteCollection = Command<'DeleteCollection', { collectionId: string }>;
export type CollectionCommand =
  CreateCollection | UpdateCollection | MoveCollection | TransferCollection | DeleteCollection;

export type CollectionCreated = DomainEvent<
  'CollectionCreated',
  {
    collectionId: string;
    organizationId: string;
    title: string;
    description?: string;
    defaultLevel: DefaultLevel;
    createdBy?: string;
    createdAt: string;
  } & Placement
>;
export type CollectionUpdated = DomainEvent<
  'CollectionUpdated',
  { collectionId: string; changes: CollectionChanges; updatedAt: string }
>;
export type CollectionMoved = DomainEvent<
  'CollectionMoved',
  { collectionId: string; from: string | null; movedAt: string } & Placement
>;
export type CollectionTransferred = DomainEvent<
  'CollectionTransferred',
  { collectionId: string; from: string; organizationId: string; transferredAt: string } & Placement
>;
export type CollectionDeleted = DomainEvent<
  'CollectionDeleted',
  { collectionId: string; organizationId: string; deletedAt: string }
>;
export type CollectionEvent =
  CollectionCreated | CollectionUpdated | CollectionMoved | CollectionTransferred | CollectionDeleted;

export type CollectionState =
  | { status: 'absent' }
  | { status: 'active'; collectionId: string; organizationId: string; parent: string | null; sortKey: number }
  | { status: 'deleted'; collectionId: string; organizationId: string };

type Active = Extract<CollectionState, { status: 'active' }>;

function requireActive(state: CollectionState, collectionId: string): Active {
  if (state.status !== 'active') throw new NotFound(`Collection ${collectionId} not found`);
  return state;
}

function checkTitle(title: string): void {
  if (title.trim().length === 0 || characterCount(title) > TITLE_MAX) {
    throw new ValidationFailed(`title must have 1 to ${TITLE_MAX} characters`);
  }
}

function checkChanges(changes: CollectionChanges): CollectionChanges {
  const defined: CollectionChanges = {};
  if (changes.title !== undefined) {
    checkTitle(changes.title);
    defined.title = changes.title;
  }
  if (changes.description !== undefined) {
    if (characterCount(changes.description) > DESCRIPTION_MAX) {
      throw new ValidationFailed(`description must have at most ${DESCRIPTION_MAX} characters`);
    }
    defined.description = changes.description;
  }
  if (changes.defaultLevel !== undefined) defined.defaultLevel = changes.defaultLevel;
  return defined;
}

/**
 * A collection groups spaces and other collections. Rules that span several collections (no cycles, the parent
 * exists in the same organization) are checked by the handlers against the read model before they decide.
 */
export const collectionDecider: Decider<CollectionState, CollectionCommand, CollectionEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'CreateCollection': {
        if (state.status !== 'absent') throw new IllegalState(`collection ${command.data.collectionId} exists`);
        checkTitle(command.data.title);
        if (command.data.description !== undefined) checkChanges({ description: command.data.description });
        if (command.data.parent === command.data.collectionId)
          throw new ValidationFailed('parent: a collection cannot contain itself');
        return [
          {
            type: 'CollectionCreated',
            data: {
              ...command.data,
              defaultLevel: 'inherit',
              ...(command.metadata.actor ? { createdBy: command.metadata.actor } : {}),
              createdAt: now,
            },
          },
        ];
      }
      case 'UpdateCollection': {
        requireActive(state, command.data.collectionId);
        const changes = checkChanges(command.data.changes);
        if (Object.keys(changes).length === 0) return [];
        return [
          { type: 'CollectionUpdated', data: { collectionId: command.data.collectionId, changes, updatedAt: now } },
        ];
      }
      case 'MoveCollection': {
        const collection = requireActive(state, command.data.collectionId);
        const { parent, sortKey } = command.data;
        if (parent === collection.collectionId)
          throw new ValidationFailed('parent: a collection cannot contain itself');
        if (parent === collection.parent && sortKey === collection.sortKey) return [];
        return [
          {
            type: 'CollectionMoved',
            data: { collectionId: collection.collectionId, from: collection.parent, parent, sortKey, movedAt: now },
          },
        ];
      }
      case 'TransferCollection': {
        const collection = requireActive(state, command.data.collectionId);
        if (collection.organizationId === command.data.organizationId) return [];
        return [
          {
            type: 'CollectionTransferred',
            data: {
              collectionId: collection.collectionId,
              from: collection.organizationId,
              organizationId: command.data.organizationId,
              parent: command.data.parent,
              sortKey: command.data.sortKey,
              transferredAt: now,
            },
          },
        ];
      }
      case 'DeleteCollection': {
        if (state.status === 'deleted') return [];
        const collection = requireActive(state, command.data.collectionId);
        return [
          {
            type: 'CollectionDeleted',
            data: { collectionId: collection.collectionId, organizationId: collection.organizationId, deletedAt: now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CollectionCreated':
        return {
          status: 'active',
          collectionId: event.data.collectionId,
          organizationId: event.data.organizationId,
          parent: event.data.parent,
          sortKey: event.data.sortKey,
        };
      case 'CollectionUpdated':
        return state;
      case 'CollectionMoved':
        return state.status === 'active' ? { ...state, parent: event.data.parent, sortKey: event.data.sortKey } : state;
      case 'CollectionTransferred':
        return state.status === 'active'
          ? {
              ...state,
              organizationId: event.data.organizationId,
              parent: event.data.parent,
              sortKey: event.data.sortKey,
            }
          : state;
      case 'CollectionDeleted':
        return state.status === 'active'
          ? { status: 'deleted', collectionId: event.data.collectionId, organizationId: state.organizationId }
          : state;
      default:
        return state;
    }
  },
};
