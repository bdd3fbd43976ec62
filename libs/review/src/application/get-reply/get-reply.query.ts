import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { UserDirectory } from '@app/identity';
import { type BodyFormat, type CommentReplyBody, commentUsers, presentReply } from '../comment-presenters';
import { CommentThreads } from '../comment-threads';

export class GetReplyQuery extends Query<CommentReplyBody> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly replyId: string,
    readonly userId: string,
    readonly format?: BodyFormat,
  ) {
    super();
  }
}

/** One reply to a comment of a space or of a change request. */
@QueryHandler(GetReplyQuery)
export class GetReplyHandler implements IQueryHandler<GetReplyQuery> {
  constructor(
    private readonly threads: CommentThreads,
    private readonly users: UserDirectory,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, replyId, userId, format }: GetReplyQuery) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'read', 'read its comments');
    const reply = await this.threads.reply(await this.threads.comment(thread, commentId), replyId);
    return presentReply(reply, {
      thread,
      userId,
      format,
      urls: this.urls,
      users: await this.users.users(commentUsers(reply)),
    });
  }
}
