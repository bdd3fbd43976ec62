import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  READ_STORE,
  type ReadStore,
  ValidationFailed,
  handleCommand,
  metadataFor,
} from '@app/kernel';
import { collectionDecider, collectionStream } from '../../domain';
import { ContentAccess } from '../content-access';
import { type ContentPosition, placeAmong } from '../placement';
import { contentsOf } from '../tree';

export class MoveCollectionCommand extends Command<CommandResult> {
  constructor(
    readonly collectionId: string,
    readonly userId: string,
    readonly parent: string | null | undefined,
    readonly position: ContentPosition | undefined,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Checks a move body: something to do, and one position at most. */
export function checkMove(parent: string | null | undefined, position: ContentPosition | undefined): void {
  if (parent === undefined && position === undefined) throw new ValidationFailed('give a parent, a position or both');
  if (position?.before && position.after) throw new ValidationFailed('position: give before or after, not both');
}

@CommandHandler(MoveCollectionCommand)
export class MoveCollectionHandler implements ICommandHandler<MoveCollectionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({
    collectionId,
    userId,
    parent,
    position,
    correlationId,
  }: MoveCollectionCommand): Promise<CommandResult> {
    checkMove(parent, position);
    const { collection } = await this.access.requireCollection(collectionId, userId, 'admin', 'move it');
    const target = parent === undefined ? collection.parent : parent;
    if (target === collectionId) throw new ValidationFailed('parent: a collection cannot be moved into itself');
    if (target !== null) {
      const { collections } = await contentsOf(this.reads, collectionId);
      if (collections.some((inner) => inner.id === target)) {
        throw new ValidationFailed('parent: a collection cannot be moved into one of its own sub-collections');
      }
    }
    if (target !== collection.parent) await this.access.requireCreateIn(collection.organizationId, target, userId);
    const sortKey = await placeAmong(this.reads, collection.organizationId, target, position, collectionId);
    const result = await handleCommand(this.events, collectionDecider, collectionStream(collectionId), {
      type: 'MoveCollection',
      data: { collectionId, parent: target, sortKey },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
