import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  metadataFor,
  type IfMatch,
} from '@app/kernel';
import { type CollectionChanges, collectionDecider, collectionStream } from '../../domain';
import { ContentAccess } from '../content-access';

export class UpdateCollectionCommand extends Command<CommandResult> {
  constructor(
    readonly collectionId: string,
    readonly userId: string,
    readonly changes: CollectionChanges,
    readonly ifMatch: IfMatch | undefined,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(UpdateCollectionCommand)
export class UpdateCollectionHandler implements ICommandHandler<UpdateCollectionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({
    collectionId,
    userId,
    changes,
    ifMatch,
    correlationId,
  }: UpdateCollectionCommand): Promise<CommandResult> {
    await this.access.requireCollection(collectionId, userId, 'admin', 'change it');
    const result = await handleCommand(
      this.events,
      collectionDecider,
      collectionStream(collectionId),
      {
        type: 'UpdateCollection',
        data: { collectionId, changes },
        metadata: metadataFor(this.clock, userId, { correlationId }),
      },
      { ifMatch },
    );
    return { position: result.position, revision: result.revision };
  }
}
