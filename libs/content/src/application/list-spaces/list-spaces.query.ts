import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  listJson,
} from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { ContentAccess } from '../content-access';
import { listVisible } from '../list-query';
import { presentSpace } from '../presenters';
import { SPACE_ACTIVITY, type SpaceActivity, type SpaceActivityCounts, activityOf } from '../space-activity';
import { SPACES, type SpaceDoc } from '../read-models';

/** A page of spaces: the JSON text (UTF-8) of the list envelope (`{items, next?, count}` of Space bodies). */
export class ListSpacesQuery extends Query<Buffer> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

/** How many presentations of one space are kept (one per role and counters a caller met it with). */
const MAX_PRESENTATIONS = 8;

/**
 * Every space of the organization the caller can see (deleted ones excluded), oldest first.
 *
 * Serialising 100 presented spaces was the largest cost of a page (a fifth of its CPU), so each space's JSON is
 * kept (as UTF-8) per document, role and counters, and the page is joined from those. The read store hands out the same
 * frozen document until it changes, so a changed space is a new key (an adapter that hands out fresh documents
 * only misses).
 */
@QueryHandler(ListSpacesQuery)
export class ListSpacesHandler implements IQueryHandler<ListSpacesQuery> {
  private readonly presented = new WeakMap<SpaceDoc, Map<string, Buffer>>();

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
    return listJson(
      page,
      page.items.map(({ space, role }) => this.spaceJson(space, role, counts.get(space.id))),
    );
  }

  private spaceJson(space: SpaceDoc, role: RoleOrGuest, counts: SpaceActivityCounts | undefined): Buffer {
    const key = counts
      ? `${role}:${counts.comments}:${counts.changeRequests}:${counts.changeRequestsOpen}:${counts.changeRequestsDraft}`
      : `${role}`;
    let kept = this.presented.get(space);
    let text = kept?.get(key);
    if (text === undefined) {
      text = Buffer.from(JSON.stringify(presentSpace(space, role, this.urls, counts)));
      if (!kept) this.presented.set(space, (kept = new Map()));
      if (kept.size >= MAX_PRESENTATIONS) kept.clear();
      kept.set(key, text);
    }
    return text;
  }
}
