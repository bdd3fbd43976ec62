import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  IllegalState,
  ValidationFailed,
  handleCommand,
  loadState,
  metadataFor,
  newId,
} from '@app/kernel';
import { buildPageTree, spaceContentState } from '@app/content';
import { baseOf, changeRequestsDecider, changeRequestsStream, findChangeRequest } from '../../domain';
import { ReviewAccess } from '../review-access';
import { ChangeRequestMerges, type MergeAnswer } from './change-request-merges';

export class MergeChangeRequestCommand extends Command<MergeAnswer> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Merges a draft or open change request into its space (review role): a three-way merge of the space's current
 * content and the change request's, from the space content the change request last included. The start is
 * recorded first; a process finishes it if the service stops before it has landed.
 */
@CommandHandler(MergeChangeRequestCommand)
export class MergeChangeRequestHandler implements ICommandHandler<MergeChangeRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ReviewAccess,
    private readonly merges: ChangeRequestMerges,
  ) {}

  async execute({ spaceId, changeRequestId, userId, correlationId }: MergeChangeRequestCommand) {
    await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'review', 'merge it');
    return this.merges.serialised(spaceId, async () => {
      const space = await spaceContentState(this.events, spaceId);
      if (space.locked) throw new IllegalState('the space is locked: nothing can be merged into it');
      const { state } = await loadState(this.events, changeRequestsDecider, changeRequestsStream(spaceId));
      const request = findChangeRequest(state, changeRequestId);
      const merging = {
        changeRequestId: request.changeRequestId,
        revisionId: newId(),
        ours: space.revisionId,
        theirs: request.revision,
        base: baseOf(request),
      };
      const merged = await this.merges.threeWay(spaceId, merging.base, merging.ours, merging.theirs);
      try {
        buildPageTree(merged.pages); // the limits the merge revision must meet, checked before anything is recorded
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        throw new IllegalState(`the merged content would break a content limit: ${error.message}`);
      }
      await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
        type: 'StartMerge',
        data: { spaceId, ...merging },
        metadata: metadataFor(this.clock, userId, { correlationId }),
      });
      return this.merges.complete(spaceId, request.changeRequestId, merging, userId, { correlationId }, merged);
    });
  }
}
