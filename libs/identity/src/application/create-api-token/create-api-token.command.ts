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
import { userStream } from '../../domain';
import { users } from '../deciders';
import { PersonalData, userSubject } from '../personal-data/sealing';
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
    private readonly personal: PersonalData,
  ) {}

  async execute({ userId, label, correlationId }: CreateApiTokenCommand): Promise<CreatedToken> {
    const token = generateToken();
    const tokenId = newId();
    const sealed = await this.personal.seal(userSubject(userId), { label });
    const result = await handleCommand(this.store, users, userStream(userId), {
      type: 'CreateApiToken',
      data: { userId, tokenId, label: sealed.label, tokenHash: hashToken(token) },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { tokenId, token, position: result.position, revision: result.revision };
  }
}
