import { type IQueryHandler, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { type ContentRead, ReadContentQuery } from '@app/content';
import { ReviewAccess } from '../review-access';

export class ReadChangeRequestContentQuery extends Query<unknown> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly read: ContentRead,
  ) {
    super();
  }
}

/**
 * A change request's content is a revision of its space: reads go to the content context's revision reads, pinned
 * to the change request's current revision.
 */
@QueryHandler(ReadChangeRequestContentQuery)
export class ReadChangeRequestContentHandler implements IQueryHandler<ReadChangeRequestContentQuery> {
  constructor(
    private readonly access: ReviewAccess,
    private readonly queries: QueryBus,
  ) {}

  async execute({ spaceId, changeRequestId, userId, read }: ReadChangeRequestContentQuery): Promise<unknown> {
    const { request } = await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'read', 'read it');
    const pinned: ContentRead = read.kind === 'revision' ? { kind: 'revision', revisionId: request.revision } : read;
    return this.queries.execute(new ReadContentQuery(spaceId, userId, pinned, request.revision));
  }
}
