import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  type GlobalPosition,
  READ_STORE,
  type ReadStore,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { collectionDecider, collectionStream, spaceDecider, spaceStream } from '../../domain';
import { ContentAccess } from '../content-access';
import { COLLECTIONS } from '../read-models';
import { contentsOf } from '../tree';

export class DeleteCollectionCommand extends Command<{ position: GlobalPosition | null }> {
  constructor(
    readonly collectionId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Deleting a collection deletes what it holds: its spaces go to the seven-day restore window like any deleted
 * space (restored later, they come back at the top level), and its sub-collections are deleted with it.
 * Inner items go first and the collection itself last, so an interrupted delete is finished by repeating it.
 */
@CommandHandler(DeleteCollectionCommand)
export class DeleteCollectionHandler implements ICommandHandler<DeleteCollectionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({
    collectionId,
    userId,
    correlationId,
  }: DeleteCollectionCommand): Promise<{ position: GlobalPosition | null }> {
    if (await this.alreadyDeleted(collectionId, userId)) return { position: null };
    await this.access.requireCollection(collectionId, userId, 'admin', 'delete it');
    const { collections, spaces } = await contentsOf(this.reads, collectionId);
    let position: GlobalPosition | null = null;
    const note = (at: GlobalPosition | null) => {
      if (at !== null && (position === null || at > position)) position = at;
    };
    for (const space of spaces.filter((s) => !s.deleted)) {
      const result = await handleCommand(this.events, spaceDecider, spaceStream(space.id), {
        type: 'DeleteSpace',
        data: { spaceId: space.id },
        metadata: metadataFor(this.clock, userId, { correlationId }),
      });
      note(result.position);
    }
    for (const collection of [...collections].reverse()) {
      const result = await handleCommand(this.events, collectionDecider, collectionStream(collection.id), {
        type: 'DeleteCollection',
        data: { collectionId: collection.id },
        metadata: metadataFor(this.clock, userId, { correlationId }),
      });
      note(result.position);
    }
    const result = await handleCommand(this.events, collectionDecider, collectionStream(collectionId), {
      type: 'DeleteCollection',
      data: { collectionId },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    note(result.position);
    return { position };
  }

  /** Deleting again what is already gone is a no-op for members of its organization (and 404 for anyone else). */
  private async alreadyDeleted(collectionId: string, userId: string): Promise<boolean> {
    if (await this.reads.get(COLLECTIONS, collectionId)) return false;
    const { state } = await loadState(this.events, collectionDecider, collectionStream(collectionId));
    if (state.status !== 'deleted') return false;
    const viewer = await this.access.viewerOrNull(state.organizationId, userId);
    return viewer !== undefined && viewer.role !== null;
  }
}
