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
import { commentThreadDecider, commentThreadStream } from '../../domain';
import { markdownOfBody } from '../comment-body';
import { CommentThreads } from '../comment-threads';

export class PostReplyCommand extends Command<CommandResult & { replyId: string; changeRequestId?: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly userId: string,
    readonly body: Record<string, unknown>,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** A reply to a comment of the thread (comment role). */
@CommandHandler(PostReplyCommand)
export class PostReplyHandler implements ICommandHandler<PostReplyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly threads: CommentThreads,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, userId, body, correlationId }: PostReplyCommand) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'comment', 'reply to comments');
    const markdown = markdownOfBody(body);
    const replyId = newId();
    const result = await handleCommand(this.events, commentThreadDecider, commentThreadStream(commentId), {
      type: 'PostReply',
      data: {
        spaceId,
        ...(thread.changeRequest ? { changeRequestId: thread.changeRequest.id } : {}),
        commentId,
        replyId,
        body: markdown,
      },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { ...result, replyId, changeRequestId: thread.changeRequest?.id };
  }
}
