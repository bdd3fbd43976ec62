import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  ValidationFailed,
  handleCommand,
  metadataFor,
} from '@app/kernel';
import { commentThreadDecider, commentThreadStream } from '../../domain';
import { markdownOfBody } from '../comment-body';
import { CommentThreads } from '../comment-threads';
import { type UpdateReplyRequest } from './update-reply.request';

export class UpdateReplyCommand extends Command<CommandResult & { changeRequestId?: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly replyId: string,
    readonly userId: string,
    readonly request: UpdateReplyRequest,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Changes the words of a reply (its author) and the caller's reactions to it (comment role). */
@CommandHandler(UpdateReplyCommand)
export class UpdateReplyHandler implements ICommandHandler<UpdateReplyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly threads: CommentThreads,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, replyId, userId, request, correlationId }: UpdateReplyCommand) {
    if (request.resolved !== undefined) {
      throw new ValidationFailed('resolved: a reply has no status; resolve or reopen its comment instead');
    }
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'comment', 'change replies');
    const body = request.body === undefined ? undefined : markdownOfBody(request.body);
    const result = await handleCommand(this.events, commentThreadDecider, commentThreadStream(commentId), {
      type: 'UpdateReply',
      data: {
        spaceId,
        ...(thread.changeRequest ? { changeRequestId: thread.changeRequest.id } : {}),
        commentId,
        replyId,
        ...(body !== undefined ? { body } : {}),
        ...(request.addedReactions ? { addedReactions: request.addedReactions } : {}),
        ...(request.removedReactions ? { removedReactions: request.removedReactions } : {}),
      },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { ...result, changeRequestId: thread.changeRequest?.id };
  }
}
