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
import { collectionStream } from '../../domain';
import { collectionsProjection } from '../../projections/collections.projection';
import { contentPublicEvents } from '../../public/public-events';
import { ContentAccess } from '../content-access';

/** The fields of a collection whose changes a history entry lists. */
const COLLECTION_FIELDS = ['title', 'description', 'defaultLevel', 'parent', 'organizationId'];

export class CollectionHistoryQuery extends Query<ListResponse<HistoryEntry>> {
  constructor(
    readonly collectionId: string,
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** A collection's history, for whoever may read the collection. */
@QueryHandler(CollectionHistoryQuery)
export class CollectionHistoryHandler implements IQueryHandler<CollectionHistoryQuery> {
  constructor(
    private readonly access: ContentAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  async execute({ collectionId, userId, list }: CollectionHistoryQuery): Promise<ListResponse<HistoryEntry>> {
    const { collection } = await this.access.requireCollection(collectionId, userId, 'read', 'read its history');
    return historyList(this.events, this.cursors, list, {
      streamId: collectionStream(collectionId),
      projection: collectionsProjection,
      id: collectionId,
      subject: { object: 'collection', id: collectionId },
      fields: COLLECTION_FIELDS,
      publicEvents: publicEventsOf(contentPublicEvents, collection.organizationId),
    });
  }
}
