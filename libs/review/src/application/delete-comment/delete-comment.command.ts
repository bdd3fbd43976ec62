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

export class DeleteCommentCommand extends Command<CommandResult> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Deletes a comment and its replies: its author (with the comment role) or an admin of the space. A comment
 * that is already gone, or was never in this thread, is left as it is.
 */
@CommandHandler(DeleteCommentCommand)
export class DeleteCommentHandler implements ICommandHandler<DeleteCommentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly threads: CommentThreads,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, userId, correlationId }: DeleteCommentCommand) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'read', 'delete comments');
    const mayModerate = deletesAsModerator(thread, 'delete comments');
    return handleCommand(this.events, commentThreadDecider, commentThreadStream(commentId), {
      type: 'DeleteComment',
      data: {
        spaceId,
        ...(thread.changeRequest ? { changeRequestId: thread.changeRequest.id } : {}),
        commentId,
        mayModerate,
      },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
  }
}
