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
import { changeRequestsStream } from '../../domain';
import { changeRequestsProjection } from '../../projections/change-requests.projection';
import { reviewPublicEvents } from '../../public/public-events';
import { ReviewAccess } from '../review-access';

/** The fields of a change request whose changes a history entry lists. */
const FIELDS = ['subject', 'status', 'revision', 'revisionMerged', 'outdated', 'mergedBy', 'mergedAt'];

export class ChangeRequestHistoryQuery extends Query<ListResponse<HistoryEntry>> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** A change request's history, for whoever may read the change request itself. */
@QueryHandler(ChangeRequestHistoryQuery)
export class ChangeRequestHistoryHandler implements IQueryHandler<ChangeRequestHistoryQuery> {
  constructor(
    private readonly access: ReviewAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  async execute({
    spaceId,
    changeRequestId,
    userId,
    list,
  }: ChangeRequestHistoryQuery): Promise<ListResponse<HistoryEntry>> {
    const { space, request } = await this.access.requireChangeRequest(
      spaceId,
      changeRequestId,
      userId,
      'read',
      'read its history',
    );
    return historyList(this.events, this.cursors, list, {
      streamId: changeRequestsStream(space.id),
      projection: changeRequestsProjection,
      id: request.id,
      subject: { object: 'change-request', id: request.id },
      fields: FIELDS,
      publicEvents: publicEventsOf(reviewPublicEvents, space.organizationId),
    });
  }
}
