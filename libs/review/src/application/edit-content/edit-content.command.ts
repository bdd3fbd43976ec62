import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  BLOB_STORE,
  type BlobStore,
  CLOCK,
  type Clock,
  DomainError,
  EVENT_STORE,
  type EventStore,
  type GlobalPosition,
  IllegalState,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { type FileNode, loadRevision, recordRevision, spaceContentState } from '@app/content';
import { baseOf, changeRequestsDecider, changeRequestsStream, findChangeRequest } from '../../domain';
import { ReviewAccess } from '../review-access';
import { type ChangeOutcome, applyContentChanges } from './content-changes';

export interface EditContentResult {
  changeRequestId: string;
  position: GlobalPosition | null;
  outcomes: ChangeOutcome[];
  insertedFiles: FileNode[];
}

export class EditContentCommand extends Command<EditContentResult> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly changes: readonly unknown[],
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

const ATTEMPTS = 3;

/**
 * Writes a batch of changes into a change request as one new revision (edit role). The batch is applied to the
 * change request's current content in memory; only when every change is valid are its files stored, the revision
 * recorded and the change request moved to it. If someone else changed the change request meanwhile, the batch is
 * applied again on top of their change.
 */
@CommandHandler(EditContentCommand)
export class EditContentHandler implements ICommandHandler<EditContentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ReviewAccess,
  ) {}

  async execute({ spaceId, changeRequestId, userId, changes, correlationId }: EditContentCommand) {
    await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'edit', 'edit its content');
    const space = await spaceContentState(this.events, spaceId);
    if (space.locked) throw new IllegalState('the space is locked: its content cannot change');
    for (let attempt = 1; ; attempt++) {
      const { state } = await loadState(this.events, changeRequestsDecider, changeRequestsStream(spaceId));
      const request = findChangeRequest(state, changeRequestId);
      if (request.status === 'merged' || request.status === 'archived') {
        throw new IllegalState(`the change request is ${request.status}: its content cannot change`);
      }
      const current = await loadRevision(this.events, request.revision, spaceId);
      const applied = await applyContentChanges(changes, {
        pages: current.pages,
        files: current.files,
        revisionPages: async (revisionId) =>
          (await loadRevision(this.events, revisionId ?? baseOf(request), spaceId)).pages,
        blobKey: (bytes) => createHash('sha256').update(bytes).digest('hex'),
      });
      for (const bytes of applied.blobs.values()) await this.blobs.put(bytes);
      const metadata = metadataFor(this.clock, userId, { correlationId });
      const { revisionId } = await recordRevision(this.events, metadata, {
        spaceId,
        parents: [request.revision],
        type: 'edits',
        pages: applied.pages,
        files: applied.files,
      });
      try {
        const result = await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
          type: 'RecordChangeRequestContent',
          data: {
            spaceId,
            changeRequestId: request.changeRequestId,
            revisionId,
            fromRevisionId: request.revision,
            pages: applied.touched,
          },
          metadata,
        });
        return {
          changeRequestId: request.changeRequestId,
          position: result.position,
          outcomes: applied.outcomes,
          insertedFiles: applied.insertedFiles,
        };
      } catch (error) {
        // the change request moved on while this batch was applied: apply it again on the newer content
        if (!(error instanceof DomainError && error.kind === 'conflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
