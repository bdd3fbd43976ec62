import {
  type CommandMetadata,
  type EventStore,
  IllegalState,
  NotFound,
  handleCommand,
  loadState,
  newId,
} from '@app/kernel';
import {
  type FileNode,
  type PageInput,
  type RevisionCreated,
  type RevisionType,
  revisionDecider,
  revisionStream,
  spaceDecider,
  spaceStream,
} from '../domain';

export interface NewRevision {
  /** Chosen by the caller when the revision must be idempotent (a durable process); a new id otherwise. */
  revisionId?: string;
  spaceId: string;
  parents: string[];
  type?: RevisionType;
  pages: PageInput[];
  files?: FileNode[];
  mergedFrom?: string;
}

/**
 * Records a revision of a space's content without making it current (a change request's content is a line of
 * revisions beside the space's). Recording the same `revisionId` again changes nothing.
 */
export async function recordRevision(events: EventStore, metadata: CommandMetadata, revision: NewRevision) {
  const revisionId = revision.revisionId ?? newId();
  const { state } = await loadState(events, revisionDecider, revisionStream(revisionId));
  if (state.status === 'created') return { revisionId, position: null };
  const result = await handleCommand(events, revisionDecider, revisionStream(revisionId), {
    type: 'CreateRevision',
    data: {
      revisionId,
      spaceId: revision.spaceId,
      parents: revision.parents,
      type: revision.type ?? 'edits',
      pages: revision.pages,
      files: revision.files ?? [],
      ...(revision.mergedFrom ? { mergedFrom: revision.mergedFrom } : {}),
    },
    metadata,
  });
  return { revisionId, position: result.position };
}

/**
 * Moves a space to a recorded revision. With `expectedRevisionId` the move holds only while the space is still at
 * that revision (a conflict otherwise); moving it to the revision it is already at changes nothing.
 */
export async function switchSpaceRevision(
  events: EventStore,
  metadata: CommandMetadata,
  change: { spaceId: string; revisionId: string; expectedRevisionId?: string },
) {
  const result = await handleCommand(events, spaceDecider, spaceStream(change.spaceId), {
    type: 'ChangeSpaceRevision',
    data: change,
    metadata,
  });
  return { position: result.position };
}

/** The facts about a space that writers of its content need, from its stream (never stale). */
export async function spaceContentState(events: EventStore, spaceId: string) {
  const { state } = await loadState(events, spaceDecider, spaceStream(spaceId));
  if (state.status !== 'active') throw new NotFound(`Space ${spaceId} not found`);
  return { revisionId: state.revisionId, locked: state.locked, organizationId: state.organizationId };
}

/** A recorded revision's content, from its stream; NotFound when it does not exist or belongs to another space. */
export async function loadRevision(
  events: EventStore,
  revisionId: string,
  spaceId?: string,
): Promise<RevisionCreated['data']> {
  const recorded = await events.readStream(revisionStream(revisionId), { fromRevision: 0, maxCount: 1 });
  const created = recorded[0];
  if (!created || (spaceId !== undefined && created.data.spaceId !== spaceId)) {
    throw new NotFound(`Revision ${revisionId} not found`);
  }
  return created.data as RevisionCreated['data'];
}

/**
 * Records a new revision of a space's content and makes it current. The revision is appended first, so the
 * space never points at a missing one; a locked or deleted space refuses before anything is written.
 */
export async function publishRevision(
  events: EventStore,
  metadata: CommandMetadata,
  change: { spaceId: string; parents: string[]; type?: RevisionType; pages: PageInput[]; files?: FileNode[] },
) {
  const space = await spaceContentState(events, change.spaceId);
  if (space.locked) throw new IllegalState('the space is locked: its content cannot change');
  const { revisionId } = await recordRevision(events, metadata, change);
  const result = await switchSpaceRevision(events, metadata, { spaceId: change.spaceId, revisionId });
  return { revisionId, position: result.position };
}
