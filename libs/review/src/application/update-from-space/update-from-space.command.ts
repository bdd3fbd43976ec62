import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  DomainError,
  EVENT_STORE,
  type EventStore,
  IllegalState,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { recordRevision, spaceContentState } from '@app/content';
import { baseOf, changeRequestsDecider, changeRequestsStream, findChangeRequest } from '../../domain';
import { ChangeRequestMerges, type MergeAnswer } from '../merge-change-request/change-request-merges';
import { ReviewAccess } from '../review-access';

export class UpdateFromSpaceCommand extends Command<MergeAnswer> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

const ATTEMPTS = 3;

/**
 * Brings the space's current content into a change request (edit role): the same three-way merge as merging, in
 * the other direction, recorded as an `update` revision of the change request. A change request that already
 * includes the space's current content is left as it is.
 */
@CommandHandler(UpdateFromSpaceCommand)
export class UpdateFromSpaceHandler implements ICommandHandler<UpdateFromSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ReviewAccess,
    private readonly merges: ChangeRequestMerges,
  ) {}

  async execute({ spaceId, changeRequestId, userId, correlationId }: UpdateFromSpaceCommand): Promise<MergeAnswer> {
    await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'edit', 'update it');
    for (let attempt = 1; ; attempt++) {
      const space = await spaceContentState(this.events, spaceId);
      const { state } = await loadState(this.events, changeRequestsDecider, changeRequestsStream(spaceId));
      const request = findChangeRequest(state, changeRequestId);
      if (request.status === 'merged' || request.status === 'archived') {
        throw new IllegalState(`the change request is ${request.status}: it cannot be updated`);
      }
      const base = baseOf(request);
      if (space.revisionId === base) {
        return { revision: request.revision, result: 'update', conflicts: [], position: null };
      }
      const merged = await this.merges.threeWay(spaceId, base, space.revisionId, request.revision);
      const metadata = metadataFor(this.clock, userId, { correlationId });
      const { revisionId } = await recordRevision(this.events, metadata, {
        spaceId,
        parents: [request.revision, space.revisionId],
        type: 'update',
        pages: merged.pages,
        files: merged.files,
      });
      const result = merged.conflicts.length > 0 ? 'conflicts' : 'update';
      try {
        const done = await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
          type: 'UpdateChangeRequestFromSpace',
          data: {
            spaceId,
            changeRequestId: request.changeRequestId,
            revisionId,
            fromRevisionId: request.revision,
            spaceRevisionId: space.revisionId,
            result,
            conflicts: merged.conflicts,
          },
          metadata,
        });
        return { revision: revisionId, result, conflicts: merged.conflicts, position: done.position };
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'conflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
