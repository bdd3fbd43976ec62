import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import {
  type Filter,
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
import { BODY_FORMATS, type BodyFormat, type CommentBody, commentUsers, presentComment } from '../comment-presenters';
import { CommentThreads } from '../comment-threads';
import { COMMENTS, type CommentDoc } from '../read-models';

const ORDERS = ['asc', 'desc'] as const;
const STATUSES = ['all', 'open', 'resolved'] as const;
export const AUTHORS_MAX = 100;

/** `authors=a&authors=b` and `authors=a,b` both give [a, b]. */
const listOfIds = ({ value }: { value: unknown }) => {
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((one) => typeof one === 'string')) return value;
  return (values as string[])
    .flatMap((one) => one.split(','))
    .map((one) => one.trim())
    .filter((one) => one.length > 0);
};

export class ListCommentsParams extends ListQuery {
  @ApiPropertyOptional({ enum: ORDERS, default: 'desc', description: 'By posting time' })
  @OptionalField()
  @IsIn(ORDERS)
  order?: (typeof ORDERS)[number];

  @ApiPropertyOptional({ enum: STATUSES, default: 'all', description: 'Only comments with this status' })
  @OptionalField()
  @IsIn(STATUSES)
  status?: (typeof STATUSES)[number];

  @ApiPropertyOptional({ enum: BODY_FORMATS, description: 'The form of the bodies; markdown when none is given' })
  @OptionalField()
  @IsIn(BODY_FORMATS)
  format?: BodyFormat;

  @ApiPropertyOptional({ description: 'Only comments about this page' })
  @OptionalField()
  @IsString()
  @MaxLength(200)
  targetPage?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: AUTHORS_MAX,
    description: 'Only comments by these users: a repeated parameter or a comma-separated list',
  })
  @OptionalField()
  @Transform(listOfIds)
  @IsArray()
  @ArrayMaxSize(AUTHORS_MAX)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  authors?: string[];
}

export class ListCommentsQuery extends Query<ListResponse<CommentBody>> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    readonly userId: string,
    readonly params: ListCommentsParams,
  ) {
    super();
  }
}

/** The comments of a space (not those of its change requests) or of one change request, newest first by default. */
@QueryHandler(ListCommentsQuery)
export class ListCommentsHandler implements IQueryHandler<ListCommentsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly threads: CommentThreads,
    private readonly users: UserDirectory,
  ) {}

  async execute({ spaceId, changeRequestId, userId, params }: ListCommentsQuery) {
    const thread = await this.threads.thread(spaceId, changeRequestId, userId, 'read', 'read its comments');
    const order = params.order ?? 'desc';
    const status = params.status ?? 'all';
    const filter: Filter = { thread: thread.key };
    if (status !== 'all') filter.status = status;
    if (params.targetPage !== undefined) filter.targetPage = params.targetPage;
    if (params.authors !== undefined && params.authors.length > 0) filter.postedBy = { $in: params.authors };
    const page = await readPage<CommentDoc, CommentDoc>(
      this.store,
      this.cursors,
      {
        collection: COMMENTS,
        scope: `comments:${thread.key}:${order}:${status}:${params.targetPage ?? ''}:${(params.authors ?? []).join(',')}`,
        filter,
        sort: [['postedAt', order === 'asc' ? 1 : -1]],
        query: params,
      },
      (doc) => doc,
    );
    const [users, pages] = await Promise.all([
      this.users.users(page.items.flatMap(commentUsers)),
      this.threads.currentPages(thread),
    ]);
    const context = { thread, userId, users, urls: this.urls, format: params.format, pages };
    return { ...page, items: page.items.map((comment) => presentComment(comment, context)) };
  }
}
