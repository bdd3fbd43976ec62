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
} from '@app/kernel';
import { spaceDecider, spaceStream } from '../../domain';
import { ContentAccess } from '../content-access';
import { COLLECTIONS, type CollectionDoc } from '../read-models';

export class RestoreSpaceCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Brings a deleted space back within seven days of its deletion, into its collection when that still exists in
 * the space's organization, otherwise at the top level.
 */
@CommandHandler(RestoreSpaceCommand)
export class RestoreSpaceHandler implements ICommandHandler<RestoreSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ spaceId, userId, correlationId }: RestoreSpaceCommand): Promise<CommandResult> {
    const { space } = await this.access.requireSpace(spaceId, userId, 'admin', 'restore it', 'visible');
    let parent = space.parent;
    if (parent !== null) {
      const collection = await this.reads.get<CollectionDoc>(COLLECTIONS, parent);
      if (!collection || collection.organizationId !== space.organizationId) parent = null;
    }
    const result = await handleCommand(this.events, spaceDecider, spaceStream(spaceId), {
      type: 'RestoreSpace',
      data: { spaceId, parent },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
