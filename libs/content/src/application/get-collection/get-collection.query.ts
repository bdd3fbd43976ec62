import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  PUBLIC_URLS,
  type PointInTime,
  type PublicUrls,
  requireDocumentAt,
} from '@app/kernel';
import { collectionStream } from '../../domain';
import { collectionsProjection } from '../../projections/collections.projection';
import { ContentAccess } from '../content-access';
import { type CollectionBody, presentCollection } from '../presenters';

export interface CollectionView {
  body: CollectionBody;
  version: number;
}

export class GetCollectionQuery extends Query<CollectionView> {
  constructor(
    readonly collectionId: string,
    readonly userId: string,
    /** Answer the collection as it was then (with today's access check). */
    readonly at?: PointInTime,
  ) {
    super();
  }
}

@QueryHandler(GetCollectionQuery)
export class GetCollectionHandler implements IQueryHandler<GetCollectionQuery> {
  constructor(
    private readonly access: ContentAccess,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ collectionId, userId, at }: GetCollectionQuery): Promise<CollectionView> {
    const current = await this.access.requireCollection(collectionId, userId, 'read', 'read it');
    const { role } = current;
    const collection = at
      ? await requireDocumentAt(
          this.events,
          collectionsProjection,
          collectionStream(collectionId),
          collectionId,
          at,
          `collection ${collectionId}`,
        )
      : current.collection;
    return { body: presentCollection(collection, role, this.urls), version: collection.version };
  }
}
