import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { presentUser } from '../presenters';
import { USERS, type UserDoc } from '../read-models';

export class GetUserQuery extends Query<ReturnType<typeof presentUser>> {
  constructor(readonly userId: string) {
    super();
  }
}

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  async execute({ userId }: GetUserQuery) {
    const user = await this.store.get<UserDoc>(USERS, userId);
    if (!user) throw new NotFound(`User ${userId} not found`);
    return presentUser(user, this.urls);
  }
}
