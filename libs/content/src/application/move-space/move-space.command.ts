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
import { checkMove } from '../move-collection/move-collection.command';
import { type ContentPosition, placeAmong } from '../placement';

export class MoveSpaceCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly parent: string | null | undefined,
    readonly position: ContentPosition | undefined,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(MoveSpaceCommand)
export class MoveSpaceHandler implements ICommandHandler<MoveSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ spaceId, userId, parent, position, correlationId }: MoveSpaceCommand): Promise<CommandResult> {
    checkMove(parent, position);
    const { space } = await this.access.requireSpace(spaceId, userId, 'admin', 'move it');
    const target = parent === undefined ? space.parent : parent;
    if (target !== space.parent) await this.access.requireCreateIn(space.organizationId, target, userId);
    const sortKey = await placeAmong(this.reads, space.organizationId, target, position, spaceId);
    const result = await handleCommand(this.events, spaceDecider, spaceStream(spaceId), {
      type: 'MoveSpace',
      data: { spaceId, parent: target, sortKey },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
