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
import { type SettableStatus, changeRequestsDecider, changeRequestsStream } from '../../domain';
import { ReviewAccess } from '../review-access';

export class UpdateChangeRequestCommand extends Command<CommandResult & { changeRequestId: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly changes: { subject?: string; status?: SettableStatus },
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Subject and status (draft, open, archived) of a change request: the edit role; a merged one is final. */
@CommandHandler(UpdateChangeRequestCommand)
export class UpdateChangeRequestHandler implements ICommandHandler<UpdateChangeRequestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ReviewAccess,
  ) {}

  async execute({ spaceId, changeRequestId, userId, changes, correlationId }: UpdateChangeRequestCommand) {
    const { request } = await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'edit', 'change it');
    const result = await handleCommand(this.events, changeRequestsDecider, changeRequestsStream(spaceId), {
      type: 'EditChangeRequest',
      data: { spaceId, changeRequestId: request.id, ...changes },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { changeRequestId: request.id, position: result.position, revision: result.revision };
  }
}
