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
import { siteStream } from '../../domain';
import { sitesProjection } from '../../projections/sites.projection';
import { publishingPublicEvents } from '../../public/public-events';
import { SiteAccess } from '../site-access';

/** The fields of a site whose changes a history entry lists. */
const FIELDS = [
  'title',
  'type',
  'visibility',
  'published',
  'basename',
  'proxy',
  'adaptiveContent',
  'agentsContext',
  'spaceIds',
];

export class SiteHistoryQuery extends Query<ListResponse<HistoryEntry>> {
  constructor(
    readonly organizationId: string,
    readonly siteId: string,
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** A site's history, for whoever may read the site itself. */
@QueryHandler(SiteHistoryQuery)
export class SiteHistoryHandler implements IQueryHandler<SiteHistoryQuery> {
  constructor(
    private readonly access: SiteAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  async execute({ organizationId, siteId, userId, list }: SiteHistoryQuery): Promise<ListResponse<HistoryEntry>> {
    await this.access.requireSite(organizationId, siteId, userId, 'read', 'read its history');
    return historyList(this.events, this.cursors, list, {
      streamId: siteStream(siteId),
      projection: sitesProjection,
      id: siteId,
      subject: { object: 'site', id: siteId },
      fields: FIELDS,
      publicEvents: publicEventsOf(publishingPublicEvents, organizationId),
    });
  }
}
