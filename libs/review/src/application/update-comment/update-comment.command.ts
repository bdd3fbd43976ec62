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
import { markdownOfBody } from '../comment-body';
import { CommentThreads } from '../comment-threads';
import { type UpdateCommentRequest } from './update-comment.request';

export class UpdateCommentCommand extends Command<CommandResult & { changeRequestId?: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly userId: string,
    readonly request: UpdateCommentRequest,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/**
 * Resolves or reopens a comment, changes its words (its author only) and the caller's reactions, all in one
 * append: the comment role is needed for any of it.
 */
@CommandHandler(UpdateCommentCommand)
export class UpdateCommentHandler implements ICommandHandler<UpdateCommentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly threads: CommentThreads,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, userId, request, correlationId }: UpdateCommentCommand) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'comment', 'change comments');
    const body = request.body === undefined ? undefined : markdownOfBody(request.body);
    const result = await handleCommand(this.events, commentThreadDecider, commentThreadStream(commentId), {
      type: 'UpdateComment',
      data: {
        spaceId,
        ...(thread.changeRequest ? { changeRequestId: thread.changeRequest.id } : {}),
        commentId,
        ...(body !== undefined ? { body } : {}),
        ...(request.resolved !== undefined ? { resolved: request.resolved } : {}),
        ...(request.addedReactions ? { addedReactions: request.addedReactions } : {}),
        ...(request.removedReactions ? { removedReactions: request.removedReactions } : {}),
      },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { ...result, changeRequestId: thread.changeRequest?.id };
  }
}
