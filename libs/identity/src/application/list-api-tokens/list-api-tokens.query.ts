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
import { PersonalData } from '../personal-data/sealing';
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
    private readonly personal: PersonalData,
  ) {}

  async execute({ userId, list }: ListApiTokensQuery) {
    const page = await readPage<ApiTokenDoc, ApiTokenDoc>(
      this.store,
      this.cursors,
      {
        collection: API_TOKENS,
        scope: `tokens:${userId}`,
        filter: { userId, revokedAt: { $exists: false } },
        sort: [['createdAt', -1]],
        query: list,
      },
      (token) => token,
    );
    const labels = await this.personal.reveal(page.items.map((token) => token.label));
    return { ...page, items: page.items.map((token, index) => presentToken(token, labels[index])) };
  }
}
