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
  newId,
} from '@app/kernel';
import { spaceContentState } from '@app/content';
import { changeRequestsDecider, changeRequestsStream } from '../../domain';
import { ReviewAccess } from '../review-access';

export class CreateChangeRequestCommand extends Command<CommandResult & { changeRequestId: string }> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly subject: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** A new change request is a draft whose content starts as the space's current revision (edit role). */
@CommandHandler(CreateChangeRequestCommand)
export class CreateChangeRequestHandler implements ICommandHandler<CreateChangeRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ReviewAccess,
  ) {}

  async execute({ spaceId, userId, subject, correlationId }: CreateChangeRequestCommand) {
    await this.access.requireSpace(spaceId, userId, 'edit', 'create change requests');
    const space = await spaceContentState(this.events, spaceId);
    const changeRequestId = newId();
    const result = await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
      type: 'CreateChangeRequest',
      data: { spaceId, changeRequestId, organizationId: space.organizationId, subject, revisionId: space.revisionId },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { changeRequestId, position: result.position, revision: result.revision };
  }
}
