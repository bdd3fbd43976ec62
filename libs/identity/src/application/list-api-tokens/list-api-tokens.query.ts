import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { presentToken } from '../presenters';
import { API_TOKENS, type ApiTokenDoc } from '../read-models';

export class ListApiTokensQuery extends Query<ListResponse<ReturnType<typeof presentToken>>> {
  constructor(
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** The caller's live tokens (revoked ones are not listed), newest first. */
@QueryHandler(ListApiTokensQuery)
export class ListApiTokensHandler implements IQueryHandler<ListApiTokensQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  execute({ userId, list }: ListApiTokensQuery) {
    return readPage<ApiTokenDoc, ReturnType<typeof presentToken>>(
      this.store,
      this.cursors,
      {
        collection: API_TOKENS,
        scope: `tokens:${userId}`,
        filter: { userId, revokedAt: { $exists: false } },
        sort: [['createdAt', -1]],
        query: list,
      },
      presentToken,
    );
  }
}
