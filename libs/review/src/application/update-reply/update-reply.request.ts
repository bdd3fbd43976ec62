import { ApiHideProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { OptionalBody, Reactions } from '../comment-body';

export class UpdateReplyRequest {
  @OptionalBody()
  body?: Record<string, unknown>;

  @Reactions()
  addedReactions?: string[];

  @Reactions()
  removedReactions?: string[];

  /** Accepted by the spec's change-request form, but a reply has no status: refused with a clear message. */
  @ApiHideProperty()
  @Allow()
  resolved?: unknown;
}
