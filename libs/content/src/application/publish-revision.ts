import { type CommandMetadata, type EventStore, handleCommand, loadState, newId } from '@app/kernel';
import {
  type FileNode,
  type PageInput,
  type RevisionType,
  revisionDecider,
  revisionStream,
  spaceDecider,
  spaceStream,
} from '../domain';

/**
 * Records a new revision of a space's content and makes it current: the way content changes (the review
 * context's merge uses it). The revision is appended first, so the space never points at a missing one.
 */
export async function publishRevision(
  events: EventStore,
  metadata: CommandMetadata,
  change: { spaceId: string; parents: string[]; type?: RevisionType; pages: PageInput[]; files?: FileNode[] },
) {
  const revisionId = newId();
  const switchCommand = {
    type: 'ChangeSpaceRevision' as const,
    data: { spaceId: change.spaceId, revisionId },
    metadata,
  };
  // A locked or deleted space refuses the change before the revision is written, so nothing is left behind.
  const { state } = await loadState(events, spaceDecider, spaceStream(change.spaceId));
  spaceDecider.decide(switchCommand, state);
  await handleCommand(events, revisionDecider, revisionStream(revisionId), {
    type: 'CreateRevision',
    data: {
      revisionId,
      spaceId: change.spaceId,
      parents: change.parents,
      type: change.type ?? 'edits',
      pages: change.pages,
      files: change.files ?? [],
    },
    metadata,
  });
  const result = await handleCommand(events, spaceDecider, spaceStream(change.spaceId), switchCommand);
  return { revisionId, position: result.position };
}
