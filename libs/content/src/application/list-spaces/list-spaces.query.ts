import { Inject, Optional } from '@nestjs/common';
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
import { type RoleOrGuest } from '@app/kernel/domain';
import { ContentAccess } from '../content-access';
import { listVisible } from '../list-query';
import { type SpaceBody, presentSpace } from '../presenters';
import { SPACE_ACTIVITY, type SpaceActivity, activityOf } from '../space-activity';
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
    @Optional() @Inject(SPACE_ACTIVITY) private readonly activity?: SpaceActivity,
  ) {}

  async execute({ organizationId, userId, params }: ListSpacesQuery) {
    const viewer = await this.access.viewer(organizationId, userId);
    const page = await listVisible<SpaceDoc, { space: SpaceDoc; role: RoleOrGuest }>(
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
      (space, role) => ({ space, role }),
    );
    const counts = await activityOf(
      this.activity,
      page.items.map((item) => item.space.id),
    );
    return {
      ...page,
      items: page.items.map(({ space, role }) => presentSpace(space, role, this.urls, counts.get(space.id))),
    };
  }
}
