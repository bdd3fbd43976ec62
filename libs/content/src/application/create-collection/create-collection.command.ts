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
  handleCommand,
  metadataFor,
  newId,
} from '@app/kernel';
import { collectionDecider, collectionStream } from '../../domain';
import { ContentAccess } from '../content-access';
import { placeAmong } from '../placement';

export interface CreatedCollection extends CommandResult {
  collectionId: string;
}

export class CreateCollectionCommand extends Command<CreatedCollection> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly title: string,
    readonly parent: string | null,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(CreateCollectionCommand)
export class CreateCollectionHandler implements ICommandHandler<CreateCollectionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({
    organizationId,
    userId,
    title,
    parent,
    correlationId,
  }: CreateCollectionCommand): Promise<CreatedCollection> {
    await this.access.requireCreateIn(organizationId, parent, userId);
    const collectionId = newId();
    const sortKey = await placeAmong(this.reads, organizationId, parent, undefined);
    const result = await handleCommand(this.events, collectionDecider, collectionStream(collectionId), {
      type: 'CreateCollection',
      data: { collectionId, organizationId, title, parent, sortKey },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { collectionId, position: result.position, revision: result.revision };
  }
}
