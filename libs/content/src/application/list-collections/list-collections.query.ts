import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type Filter,
  ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PublicUrls,
  QueryFlag,
  READ_STORE,
  type ReadStore,
} from '@app/kernel';
import { ContentAccess } from '../content-access';
import { listVisible } from '../list-query';
import { type CollectionBody, presentCollection } from '../presenters';
import { COLLECTIONS, type CollectionDoc } from '../read-models';

export class ListCollectionsParams extends ListQuery {
  @QueryFlag(true, 'When false, only top-level collections are listed')
  nested?: boolean;
}

export class ListCollectionsQuery extends Query<ListResponse<CollectionBody>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListCollectionsParams,
  ) {
    super();
  }
}

@QueryHandler(ListCollectionsQuery)
export class ListCollectionsHandler implements IQueryHandler<ListCollectionsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: ContentAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListCollectionsQuery) {
    const viewer = await this.access.viewer(organizationId, userId);
    const nested = params.nested ?? true;
    const filter: Filter = { organizationId, ...(nested ? {} : { parent: null }) };
    return listVisible<CollectionDoc, CollectionBody>(
      this.store,
      this.cursors,
      this.access,
      viewer,
      {
        collection: COLLECTIONS,
        scope: `collections:${organizationId}:${nested}`,
        filter,
        sort: nested ? [['createdAt', 1]] : [['sortKey', 1]],
        query: params,
      },
      (collection, role) => presentCollection(collection, role, this.urls),
    );
  }
}
