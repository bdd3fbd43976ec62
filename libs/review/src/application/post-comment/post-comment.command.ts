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
import { type PostCommentRequest } from './post-comment.request';

export class PostCommentCommand extends Command<CommandResult & { commentId: string; changeRequestId?: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly userId: string,
    readonly request: PostCommentRequest,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** A new open comment on a space or a change request (comment role), about a page of its current content or not. */
@CommandHandler(PostCommentCommand)
export class PostCommentHandler implements ICommandHandler<PostCommentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly threads: CommentThreads,
  ) {}

  async execute({ spaceId, changeRequestId, userId, request, correlationId }: PostCommentCommand) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'comment', 'comment on it');
    const body = markdownOfBody(request.body);
    const target = await this.threads.target(thread, request.page, request.node);
    const commentId = newId();
    const result = await handleCommand(this.events, commentThreadDecider, commentThreadStream(commentId), {
      type: 'PostComment',
      data: {
        spaceId,
        ...(thread.changeRequest ? { changeRequestId: thread.changeRequest.id } : {}),
        commentId,
        organizationId: thread.space.organizationId,
        body,
        target,
      },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    });
    return { ...result, commentId, changeRequestId: thread.changeRequest?.id };
  }
}
