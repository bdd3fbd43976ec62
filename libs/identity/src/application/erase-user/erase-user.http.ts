import { Controller, Delete, HttpCode, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type Actor,
  CLOCK,
  type Clock,
  CurrentActor,
  EVENT_STORE,
  type EventStore,
  KEY_STORE,
  type KeyStore,
  READ_STORE,
  type ReadStore,
  Runtime,
} from '@app/kernel';
import { ERASURE_READ_MODELS, eraseUser } from './erase-user';

@ApiTags('users')
@Controller()
export class EraseUserController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(KEY_STORE) private readonly keys: KeyStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runtime: Runtime,
  ) {}

  /**
   * Erases the caller (beyond the spec): they leave their organizations, their name, email and token labels can no
   * longer be read anywhere, and their tokens (this one included) stop working once this answers.
   */
  @Delete('user')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Erase yourself: your personal data becomes unreadable everywhere and your tokens stop working',
    description:
      'Refused with 409 while you are the last admin of an organization. Your id stays where you acted ' +
      '(comments, change requests), shown as "Erased user".',
  })
  async erase(@CurrentActor() actor: Actor): Promise<void> {
    const result = await eraseUser(
      { events: this.events, reads: this.reads, keys: this.keys },
      this.clock,
      actor.userId,
      { actor: actor.userId, correlationId: actor.requestId },
    );
    await this.runtime.settle(result.position, ERASURE_READ_MODELS);
  }
}
