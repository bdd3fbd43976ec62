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
import { commentThreadDecider, commentThreadStream } from '../../domain';
import { CommentThreads, deletesAsModerator } from '../comment-threads';

export class DeleteReplyCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly replyId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Deletes a reply: its author (with the comment role) or an admin of the space; one already gone stays gone. */
@CommandHandler(DeleteReplyCommand)
export class DeleteReplyHandler implements ICommandHandler<DeleteReplyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly threads: CommentThreads,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, replyId, userId, correlationId }: DeleteReplyCommand) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'read', 'delete replies');
    const mayModerate = deletesAsModerator(thread, 'delete replies');
    return handleCommand(this.events, commentThreadDecider, commentThreadStream(commentId), {
      type: 'DeleteReply',
      data: {
        spaceId,
        ...(thread.changeRequest ? { changeRequestId: thread.changeRequest.id } : {}),
        commentId,
        replyId,
        mayModerate,
      },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
  }
}
