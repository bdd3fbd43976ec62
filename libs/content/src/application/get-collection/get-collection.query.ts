import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PUBLIC_URLS, type PublicUrls } from '@app/kernel';
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
  ) {
    super();
  }
}

@QueryHandler(GetCollectionQuery)
export class GetCollectionHandler implements IQueryHandler<GetCollectionQuery> {
  constructor(
    private readonly access: ContentAccess,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  async execute({ collectionId, userId }: GetCollectionQuery): Promise<CollectionView> {
    const { collection, role } = await this.access.requireCollection(collectionId, userId, 'read', 'read it');
    return { body: presentCollection(collection, role, this.urls), version: collection.version };
  }
}
