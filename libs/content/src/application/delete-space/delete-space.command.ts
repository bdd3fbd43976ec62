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
} from '@app/kernel';
import { spaceDecider, spaceStream } from '../../domain';
import { ContentAccess } from '../content-access';

export class DeleteSpaceCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Marks the space deleted; it can be restored for seven days (deleting it again changes nothing). */
@CommandHandler(DeleteSpaceCommand)
export class DeleteSpaceHandler implements ICommandHandler<DeleteSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ spaceId, userId, correlationId }: DeleteSpaceCommand): Promise<CommandResult> {
    await this.access.requireSpace(spaceId, userId, 'admin', 'delete it', 'visible');
    const result = await handleCommand(this.events, spaceDecider, spaceStream(spaceId), {
      type: 'DeleteSpace',
      data: { spaceId },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
