import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { People } from '../personal-data/people';
import { presentUser } from '../presenters';

export class GetUserQuery extends Query<ReturnType<typeof presentUser>> {
  constructor(readonly userId: string) {
    super();
  }
}

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(
    private readonly people: People,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  async execute({ userId }: GetUserQuery) {
    const person = await this.people.byId(userId);
    if (person.status === 'unknown') throw new NotFound(`User ${userId} not found`);
    return presentUser(person, this.urls);
  }
}
