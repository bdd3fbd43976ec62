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
import { placeAmong } from '../placement';

export class TransferSpaceCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly organizationId: string,
    readonly parent: string | null,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Moves a space to another organization (at its top level, or into one of its collections), or, within its
 * organization, into another collection. The caller administers the space and may create at the destination.
 */
@CommandHandler(TransferSpaceCommand)
export class TransferSpaceHandler implements ICommandHandler<TransferSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({
    spaceId,
    userId,
    organizationId,
    parent,
    correlationId,
  }: TransferSpaceCommand): Promise<CommandResult> {
    const { space } = await this.access.requireSpace(spaceId, userId, 'admin', 'transfer it');
    if (space.organizationId === organizationId && space.parent === parent) {
      return { position: null, revision: space.version };
    }
    await this.access.requireCreateIn(organizationId, parent, userId);
    const sortKey = await placeAmong(this.reads, organizationId, parent, undefined, spaceId);
    const result = await handleCommand(this.events, spaceDecider, spaceStream(spaceId), {
      type: 'TransferSpace',
      data: { spaceId, organizationId, parent, sortKey },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
