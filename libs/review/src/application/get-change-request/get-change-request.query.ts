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
import { changeRequestsStream } from '../../domain';
import { changeRequestsProjection } from '../../projections/change-requests.projection';
import { UserDirectory } from '@app/identity';
import { type ChangeRequestBody, presentChangeRequest, usersOf } from '../presenters';
import { ReviewAccess } from '../review-access';

export class GetChangeRequestQuery extends Query<ChangeRequestBody> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    /** Answer the change request as it was then (with today's access check). */
    readonly at?: PointInTime,
  ) {
    super();
  }
}

/** A change request, by id or by its number in the space. */
@QueryHandler(GetChangeRequestQuery)
export class GetChangeRequestHandler implements IQueryHandler<GetChangeRequestQuery> {
  constructor(
    private readonly access: ReviewAccess,
    private readonly users: UserDirectory,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ spaceId, changeRequestId, userId, at }: GetChangeRequestQuery): Promise<ChangeRequestBody> {
    const {
      space,
      role,
      request: current,
    } = await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'read', 'read it');
    const request = at
      ? await requireDocumentAt(
          this.events,
          changeRequestsProjection,
          changeRequestsStream(space.id),
          current.id,
          at,
          `change request ${changeRequestId}`,
        )
      : current;
    return presentChangeRequest(request, {
      role,
      locked: space.editMode === 'locked',
      users: await this.users.users(usersOf(request)),
      urls: this.urls,
    });
  }
}
