import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { UserDirectory } from '@app/identity';
import { type BodyFormat, type CommentBody, commentUsers, presentComment } from '../comment-presenters';
import { CommentThreads } from '../comment-threads';

export class GetCommentQuery extends Query<CommentBody> {
  constructor(
    readonly spaceId: string,
    /** Absent for a comment on the space itself. */
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly userId: string,
    readonly format?: BodyFormat,
  ) {
    super();
  }
}

/** One comment of a space or of a change request. */
@QueryHandler(GetCommentQuery)
export class GetCommentHandler implements IQueryHandler<GetCommentQuery> {
  constructor(
    private readonly threads: CommentThreads,
    private readonly users: UserDirectory,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, userId, format }: GetCommentQuery): Promise<CommentBody> {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'read', 'read its comments');
    const comment = await this.threads.comment(thread, commentId);
    return presentComment(comment, {
      thread,
      userId,
      format,
      urls: this.urls,
      users: await this.users.users(commentUsers(comment)),
      pages: await this.threads.currentPages(thread),
    });
  }
}
