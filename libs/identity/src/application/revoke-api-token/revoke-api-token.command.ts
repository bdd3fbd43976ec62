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
import { userStream } from '../../domain';
import { users } from '../deciders';

export class RevokeApiTokenCommand extends Command<CommandResult> {
  constructor(
    readonly userId: string,
    readonly tokenId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(RevokeApiTokenCommand)
export class RevokeApiTokenHandler implements ICommandHandler<RevokeApiTokenCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, tokenId, correlationId }: RevokeApiTokenCommand): Promise<CommandResult> {
    const result = await handleCommand(this.store, users, userStream(userId), {
      type: 'RevokeApiToken',
      data: { userId, tokenId },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
