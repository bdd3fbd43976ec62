import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  type HistoryEntry,
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  historyList,
  publicEventsOf,
} from '@app/kernel';
import { spaceStream } from '../../domain';
import { spacesProjection } from '../../projections/spaces.projection';
import { contentPublicEvents } from '../../public/public-events';
import { ContentAccess } from '../content-access';

/** The fields of a space whose changes a history entry lists. */
const SPACE_FIELDS = ['title', 'emoji', 'editMode', 'defaultLevel', 'parent', 'organizationId', 'revision', 'deleted'];

export class SpaceHistoryQuery extends Query<ListResponse<HistoryEntry>> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** A space's history: whoever may read the space (a deleted one: whoever may administer it) may read it. */
@QueryHandler(SpaceHistoryQuery)
export class SpaceHistoryHandler implements IQueryHandler<SpaceHistoryQuery> {
  constructor(
    private readonly access: ContentAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  async execute({ spaceId, userId, list }: SpaceHistoryQuery): Promise<ListResponse<HistoryEntry>> {
    const { space } = await this.access.requireSpace(spaceId, userId, 'read', 'read its history', 'visible');
    return historyList(this.events, this.cursors, list, {
      streamId: spaceStream(spaceId),
      projection: spacesProjection,
      id: spaceId,
      subject: { object: 'space', id: spaceId },
      fields: SPACE_FIELDS,
      publicEvents: publicEventsOf(contentPublicEvents, space.organizationId),
    });
  }
}
