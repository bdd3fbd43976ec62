import {
  type Command,
  type Decider,
  type DefaultLevel,
  type DomainEvent,
  DomainError,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
  characterCount,
} from '@app/kernel/domain';
import { type Placement } from './collection.decider';
import { EMOJI_MAX, TITLE_MAX, purgeTime, withinRestoreWindow } from './levels';

export const spaceStream = (spaceId: string) => `space-${spaceId}`;

export type EditMode = 'live' | 'locked';

export type SpaceChanges = {
  title?: string;
  emoji?: string;
  editMode?: EditMode;
  defaultLevel?: DefaultLevel;
};

export type CreateSpace = Command<
  'CreateSpace',
  {
    spaceId: string;
    organizationId: string;
    title: string;
    emoji?: string;
    /** The space's first revision (created beside it). */
    revisionId: string;
    /** Set when the space is a copy of another one. */
    duplicatedFrom?: string;
  } & Placement
>;
export type UpdateSpace = Command<'UpdateSpace', { spaceId: string; changes: SpaceChanges }>;
export type MoveSpace = Command<'MoveSpace', { spaceId: string } & Placement>;
export type TransferSpace = Command<'TransferSpace', { spaceId: string; organizationId: string } & Placement>;
export type DeleteSpace = Command<'DeleteSpace', { spaceId: string }>;
/** `parent` is where the space comes back: its old collection, or the top level when that is gone. */
export type RestoreSpace = Command<'RestoreSpace', { spaceId: string; parent: string | null }>;
export type PurgeSpace = Command<'PurgeSpace', { spaceId: string }>;
/**
 * Makes another revision the space's current content (what merging a change request does). With
 * `expectedRevisionId`, the change holds only while the space is still at that revision (or already at the new one).
 */
export type ChangeSpaceRevision = Command<
  'ChangeSpaceRevision',
  { spaceId: string; revisionId: string; expectedRevisionId?: string }
>;
export type SpaceCommand =
  ChangeSpaceRevision | CreateSpace | UpdateSpace | MoveSpace | TransferSpace | DeleteSpace | RestoreSpace | PurgeSpace;

export type SpaceCreated = DomainEvent<
  'SpaceCreated',
  {
    spaceId: string;
    organizationId: string;
    title: string;
    emoji: string;
    revisionId: string;
    defaultLevel: DefaultLevel;
    editMode: EditMode;
    duplicatedFrom?: string;
    createdBy?: string;
    createdAt: string;
  } & Placement
>;
export type SpaceUpdated = DomainEvent<'SpaceUpdated', { spaceId: string; changes: SpaceChanges; updatedAt: string }>;
export type SpaceMoved = DomainEvent<
  'SpaceMoved',
  { spaceId: string; from: string | null; movedAt: string } & Placement
>;
export type SpaceTransferred = DomainEvent<
  'SpaceTransferred',
  { spaceId: string; from: string; organizationId: string; transferredAt: string } & Placement
>;
export type SpaceDeleted = DomainEvent<
  'SpaceDeleted',
  { spaceId: string; organizationId: string; deletedAt: string; purgeAt: string }
>;
export type SpaceRestored = DomainEvent<
  'SpaceRestored',
  { spaceId: string; parent: string | null; restoredAt: string }
>;
export type SpacePurged = DomainEvent<'SpacePurged', { spaceId: string; organizationId: string; purgedAt: string }>;
export type SpaceRevisionChanged = DomainEvent<
  'SpaceRevisionChanged',
  { spaceId: string; revisionId: string; previousRevisionId: string; changedAt: string }
>;
export type SpaceEvent =
  | SpaceRevisionChanged
  | SpaceCreated
  | SpaceUpdated
  | SpaceMoved
  | SpaceTransferred
  | SpaceDeleted
  | SpaceRestored
  | SpacePurged;

interface SpaceFacts {
  spaceId: string;
  organizationId: string;
  parent: string | null;
  sortKey: number;
  revisionId: string;
  /** A locked space refuses content changes. */
  locked: boolean;
}

export type SpaceState =
  | { status: 'absent' }
  | ({ status: 'active' } & SpaceFacts)
  | ({ status: 'deleted'; deletedAt: string } & SpaceFacts)
  | { status: 'purged'; spaceId: string };

type Active = Extract<SpaceState, { status: 'active' }>;

function requireActive(state: SpaceState, spaceId: string): Active {
  if (state.status !== 'active') throw new NotFound(`Space ${spaceId} not found`);
  return state;
}

function checkTitle(title: string): void {
  if (title.trim().length === 0 || characterCount(title) > TITLE_MAX) {
    throw new ValidationFailed(`title must have 1 to ${TITLE_MAX} characters`);
  }
}

function checkEmoji(emoji: string): void {
  if (characterCount(emoji) > EMOJI_MAX) throw new ValidationFailed(`emoji must have at most ${EMOJI_MAX} characters`);
}

/** A space and its life: active, deleted (restorable for seven days), purged for good. */
export const spaceDecider: Decider<SpaceState, SpaceCommand, SpaceEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'CreateSpace': {
        if (state.status !== 'absent') throw new IllegalState(`space ${command.data.spaceId} exists`);
        checkTitle(command.data.title);
        const emoji = command.data.emoji ?? '';
        checkEmoji(emoji);
        return [
          {
            type: 'SpaceCreated',
            data: {
              ...command.data,
              emoji,
              defaultLevel: 'inherit',
              editMode: 'live',
              ...(command.metadata.actor ? { createdBy: command.metadata.actor } : {}),
              createdAt: now,
            },
          },
        ];
      }
      case 'UpdateSpace': {
        requireActive(state, command.data.spaceId);
        const changes: SpaceChanges = {};
        for (const [key, value] of Object.entries(command.data.changes)) {
          if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
        }
        if (changes.title !== undefined) checkTitle(changes.title);
        if (changes.emoji !== undefined) checkEmoji(changes.emoji);
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'SpaceUpdated', data: { spaceId: command.data.spaceId, changes, updatedAt: now } }];
      }
      case 'ChangeSpaceRevision': {
        const space = requireActive(state, command.data.spaceId);
        if (space.locked) throw new IllegalState('the space is locked: its content cannot change');
        if (space.revisionId === command.data.revisionId) return [];
        const expected = command.data.expectedRevisionId;
        if (expected !== undefined && space.revisionId !== expected) {
          throw new DomainError('conflict', `the space's content changed (now at revision ${space.revisionId})`);
        }
        return [
          {
            type: 'SpaceRevisionChanged',
            data: {
              spaceId: space.spaceId,
              revisionId: command.data.revisionId,
              previousRevisionId: space.revisionId,
              changedAt: now,
            },
          },
        ];
      }
      case 'MoveSpace': {
        const space = requireActive(state, command.data.spaceId);
        if (space.parent === command.data.parent && space.sortKey === command.data.sortKey) return [];
        return [
          {
            type: 'SpaceMoved',
            data: {
              spaceId: space.spaceId,
              from: space.parent,
              parent: command.data.parent,
              sortKey: command.data.sortKey,
              movedAt: now,
            },
          },
        ];
      }
      case 'TransferSpace': {
        const space = requireActive(state, command.data.spaceId);
        if (space.organizationId === command.data.organizationId && space.parent === command.data.parent) return [];
        return [
          {
            type: 'SpaceTransferred',
            data: {
              spaceId: space.spaceId,
              from: space.organizationId,
              organizationId: command.data.organizationId,
              parent: command.data.parent,
              sortKey: command.data.sortKey,
              transferredAt: now,
            },
          },
        ];
      }
      case 'DeleteSpace': {
        if (state.status === 'deleted') return [];
        const space = requireActive(state, command.data.spaceId);
        return [
          {
            type: 'SpaceDeleted',
            data: {
              spaceId: space.spaceId,
              organizationId: space.organizationId,
              deletedAt: now,
              purgeAt: purgeTime(now),
            },
          },
        ];
      }
      case 'RestoreSpace': {
        if (state.status === 'active') return [];
        if (state.status !== 'deleted') throw new NotFound(`Space ${command.data.spaceId} not found`);
        if (!withinRestoreWindow(state.deletedAt, now)) {
          throw new IllegalState('the space was deleted more than 7 days ago and can no longer be restored');
        }
        return [
          { type: 'SpaceRestored', data: { spaceId: state.spaceId, parent: command.data.parent, restoredAt: now } },
        ];
      }
      case 'PurgeSpace': {
        // Only a space still deleted when its window closes goes; a restored or purged one is left alone.
        if (state.status !== 'deleted' || withinRestoreWindow(state.deletedAt, now)) return [];
        return [
          {
            type: 'SpacePurged',
            data: { spaceId: state.spaceId, organizationId: state.organizationId, purgedAt: now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SpaceCreated':
        return {
          status: 'active',
          spaceId: event.data.spaceId,
          organizationId: event.data.organizationId,
          parent: event.data.parent,
          sortKey: event.data.sortKey,
          revisionId: event.data.revisionId,
          locked: event.data.editMode === 'locked',
        };
      case 'SpaceUpdated':
        if (state.status !== 'active' || event.data.changes.editMode === undefined) return state;
        return { ...state, locked: event.data.changes.editMode === 'locked' };
      case 'SpaceRevisionChanged':
        return state.status === 'active' ? { ...state, revisionId: event.data.revisionId } : state;
      case 'SpaceMoved':
        return state.status === 'active' ? { ...state, parent: event.data.parent, sortKey: event.data.sortKey } : state;
      case 'SpaceTransferred':
        return state.status === 'active'
          ? {
              ...state,
              organizationId: event.data.organizationId,
              parent: event.data.parent,
              sortKey: event.data.sortKey,
            }
          : state;
      case 'SpaceDeleted':
        return state.status === 'active' ? { ...state, status: 'deleted', deletedAt: event.data.deletedAt } : state;
      case 'SpaceRestored':
        if (state.status !== 'deleted') return state;
        return {
          status: 'active',
          spaceId: state.spaceId,
          organizationId: state.organizationId,
          parent: event.data.parent,
          sortKey: state.sortKey,
          revisionId: state.revisionId,
          locked: state.locked,
        };
      case 'SpacePurged':
        return { status: 'purged', spaceId: event.data.spaceId };
      default:
        return state;
    }
  },
};
