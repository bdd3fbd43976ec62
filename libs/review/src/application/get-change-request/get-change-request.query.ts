import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { UserDirectory } from '@app/identity';
import { type ChangeRequestBody, presentChangeRequest, usersOf } from '../presenters';
import { ReviewAccess } from '../review-access';

export class GetChangeRequestQuery extends Query<ChangeRequestBody> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
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
  ) {}

  async execute({ spaceId, changeRequestId, userId }: GetChangeRequestQuery): Promise<ChangeRequestBody> {
    const { space, role, request } = await this.access.requireChangeRequest(
      spaceId,
      changeRequestId,
      userId,
      'read',
      'read it',
    );
    return presentChangeRequest(request, {
      role,
      locked: space.editMode === 'locked',
      users: await this.users.users(usersOf(request)),
      urls: this.urls,
    });
  }
}
