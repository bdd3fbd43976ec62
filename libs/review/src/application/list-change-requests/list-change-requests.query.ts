import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import {
  type Filter,
  ListQuery,
  type ListResponse,
  OptionalField,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { UserDirectory } from '@app/identity';
import { type ChangeRequestStatus } from '../../domain';
import { type ChangeRequestBody, presentChangeRequest, usersOf } from '../presenters';
import { CHANGE_REQUESTS, type ChangeRequestDoc } from '../read-models';
import { ReviewAccess } from '../review-access';

const STATUSES: ChangeRequestStatus[] = ['draft', 'open', 'archived', 'merged'];

export class ListChangeRequestsParams extends ListQuery {
  @ApiPropertyOptional({ enum: STATUSES, default: 'open', description: 'Only change requests with this status' })
  @OptionalField()
  @IsIn(STATUSES)
  status?: ChangeRequestStatus;

  @ApiPropertyOptional({ description: 'Only change requests this user wrote into (created, edited or updated)' })
  @OptionalField()
  @IsString()
  @MaxLength(200)
  contributor?: string;
}

export class ListChangeRequestsQuery extends Query<ListResponse<ChangeRequestBody>> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly params: ListChangeRequestsParams,
  ) {
    super();
  }
}

/** The change requests of a space with one status (open by default), newest number first. */
@QueryHandler(ListChangeRequestsQuery)
export class ListChangeRequestsHandler implements IQueryHandler<ListChangeRequestsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: ReviewAccess,
    private readonly users: UserDirectory,
  ) {}

  async execute({ spaceId, userId, params }: ListChangeRequestsQuery) {
    const { space, role } = await this.access.requireSpace(spaceId, userId, 'read', 'list its change requests');
    const status = params.status ?? 'open';
    const filter: Filter = { spaceId, status };
    if (params.contributor !== undefined) filter.contributors = { $has: params.contributor };
    const page = await readPage<ChangeRequestDoc, ChangeRequestDoc>(
      this.store,
      this.cursors,
      {
        collection: CHANGE_REQUESTS,
        scope: `change-requests:${spaceId}:${status}:${params.contributor ?? ''}`,
        filter,
        sort: [['number', -1]],
        query: params,
      },
      (doc) => doc,
    );
    const users = await this.users.users(page.items.flatMap(usersOf));
    const locked = space.editMode === 'locked';
    return {
      ...page,
      items: page.items.map((request) => presentChangeRequest(request, { role, locked, users, urls: this.urls })),
    };
  }
}
