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
  metadataFor,
} from '@app/kernel';
import { collectionDecider, collectionStream, spaceDecider, spaceStream } from '../../domain';
import { ContentAccess } from '../content-access';
import { placeAmong } from '../placement';
import { contentsOf } from '../tree';

export class TransferCollectionCommand extends Command<{ position: GlobalPosition | null }> {
  constructor(
    readonly collectionId: string,
    readonly userId: string,
    readonly organizationId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Moves a collection, its sub-collections and their spaces to another organization, where the collection lands
 * at the top level. The caller administers the collection and may create content in the target. Inner items go
 * first, so an interrupted transfer is finished by repeating it.
 */
@CommandHandler(TransferCollectionCommand)
export class TransferCollectionHandler implements ICommandHandler<TransferCollectionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ collectionId, userId, organizationId, correlationId }: TransferCollectionCommand) {
    const { collection } = await this.access.requireCollection(collectionId, userId, 'admin', 'transfer it');
    if (collection.organizationId === organizationId) return { position: null };
    await this.access.requireCreateIn(organizationId, null, userId);
    const { collections, spaces } = await contentsOf(this.reads, collectionId);
    const sortKey = await placeAmong(this.reads, organizationId, null, undefined);
    let position: GlobalPosition | null = null;
    const note = (at: GlobalPosition | null) => {
      if (at !== null && (position === null || at > position)) position = at;
    };
    const metadata = () => metadataFor(this.clock, userId, { correlationId });
    for (const space of spaces.filter((s) => !s.deleted)) {
      const result = await handleCommand(this.events, spaceDecider, spaceStream(space.id), {
        type: 'TransferSpace',
        data: { spaceId: space.id, organizationId, parent: space.parent, sortKey: space.sortKey },
        metadata: metadata(),
      });
      note(result.position);
    }
    for (const inner of [...collections].reverse()) {
      const result = await handleCommand(this.events, collectionDecider, collectionStream(inner.id), {
        type: 'TransferCollection',
        data: { collectionId: inner.id, organizationId, parent: inner.parent, sortKey: inner.sortKey },
        metadata: metadata(),
      });
      note(result.position);
    }
    const result = await handleCommand(this.events, collectionDecider, collectionStream(collectionId), {
      type: 'TransferCollection',
      data: { collectionId, organizationId, parent: null, sortKey },
      metadata: metadata(),
    });
    note(result.position);
    return { position };
  }
}
