import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import {
  ListQuery,
  type ListResponse,
  OptionalField,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { UserDirectory } from '@app/identity';
import {
  BODY_FORMATS,
  type BodyFormat,
  type CommentReplyBody,
  commentUsers,
  presentReply,
} from '../comment-presenters';
import { CommentThreads } from '../comment-threads';
import { COMMENT_REPLIES, type CommentReplyDoc } from '../read-models';

export class ListRepliesParams extends ListQuery {
  @ApiPropertyOptional({ enum: BODY_FORMATS, description: 'The form of the bodies; markdown when none is given' })
  @OptionalField()
  @IsIn(BODY_FORMATS)
  format?: BodyFormat;
}

export class ListRepliesQuery extends Query<ListResponse<CommentReplyBody>> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly commentId: string,
    readonly userId: string,
    readonly params: ListRepliesParams,
  ) {
    super();
  }
}

/** The replies to a comment, oldest first. */
@QueryHandler(ListRepliesQuery)
export class ListRepliesHandler implements IQueryHandler<ListRepliesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly threads: CommentThreads,
    private readonly users: UserDirectory,
  ) {}

  async execute({ spaceId, changeRequestId, commentId, userId, params }: ListRepliesQuery) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'read', 'read its comments');
    const comment = await this.threads.comment(thread, commentId);
    const page = await readPage<CommentReplyDoc, CommentReplyDoc>(
      this.store,
      this.cursors,
      {
        collection: COMMENT_REPLIES,
        scope: `replies:${comment.id}`,
        filter: { commentId: comment.id },
        sort: [['postedAt', 1]],
        query: params,
      },
      (doc) => doc,
    );
    const users = await this.users.users(page.items.flatMap(commentUsers));
    const context = { thread, userId, users, urls: this.urls, format: params.format };
    return { ...page, items: page.items.map((reply) => presentReply(reply, context)) };
  }
}
