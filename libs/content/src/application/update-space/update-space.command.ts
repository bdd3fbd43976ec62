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
import { type SpaceChanges, spaceDecider, spaceStream } from '../../domain';
import { ContentAccess } from '../content-access';

export class UpdateSpaceCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly changes: SpaceChanges,
    readonly ifMatch: IfMatch | undefined,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Title and emoji need the edit role; the edit mode and default level, which decide access, the admin role. */
@CommandHandler(UpdateSpaceCommand)
export class UpdateSpaceHandler implements ICommandHandler<UpdateSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ spaceId, userId, changes, ifMatch, correlationId }: UpdateSpaceCommand): Promise<CommandResult> {
    const needsAdmin = changes.editMode !== undefined || changes.defaultLevel !== undefined;
    await this.access.requireSpace(spaceId, userId, needsAdmin ? 'admin' : 'edit', 'change these settings');
    const result = await handleCommand(
      this.events,
      spaceDecider,
      spaceStream(spaceId),
      { type: 'UpdateSpace', data: { spaceId, changes }, metadata: metadataFor(this.clock, userId, { correlationId }) },
      { ifMatch },
    );
    return { position: result.position, revision: result.revision };
  }
}
