import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
} from '@app/kernel';
import { ContentAccess } from '../content-access';
import { listVisible } from '../list-query';
import { type SpaceBody, presentSpace } from '../presenters';
import { SPACES, type SpaceDoc } from '../read-models';

export class ListSpacesQuery extends Query<ListResponse<SpaceBody>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

/** Every space of the organization the caller can see (deleted ones excluded), oldest first. */
@QueryHandler(ListSpacesQuery)
export class ListSpacesHandler implements IQueryHandler<ListSpacesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: ContentAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListSpacesQuery) {
    const viewer = await this.access.viewer(organizationId, userId);
    return listVisible<SpaceDoc, SpaceBody>(
      this.store,
      this.cursors,
      this.access,
      viewer,
      {
        collection: SPACES,
        scope: `spaces:${organizationId}`,
        filter: { organizationId, deleted: false },
        sort: [['createdAt', 1]],
        query: params,
      },
      (space, role) => presentSpace(space, role, this.urls),
    );
  }
}
