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
import { userDecider, userStream } from '../../domain';
import { generateToken, hashToken } from '../tokens';

export interface CreatedToken extends CommandResult {
  tokenId: string;
  token: string;
}

export class CreateApiTokenCommand extends Command<CreatedToken> {
  constructor(
    readonly userId: string,
    readonly label: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Issues a token: the secret leaves this handler once, in the result; the store keeps only its hash. */
@CommandHandler(CreateApiTokenCommand)
export class CreateApiTokenHandler implements ICommandHandler<CreateApiTokenCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, label, correlationId }: CreateApiTokenCommand): Promise<CreatedToken> {
    const token = generateToken();
    const tokenId = newId();
    const result = await handleCommand(this.store, userDecider, userStream(userId), {
      type: 'CreateApiToken',
      data: { userId, tokenId, label, tokenHash: hashToken(token) },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { tokenId, token, position: result.position, revision: result.revision };
  }
}
