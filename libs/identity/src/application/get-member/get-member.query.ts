import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { OrganizationAccess } from '../../public/organization-access';
import { People } from '../personal-data/people';
import { presentMember } from '../presenters';
import { MEMBERS, type MemberDoc, memberDocId } from '../read-models';

export class GetMemberQuery extends Query<ReturnType<typeof presentMember>> {
  constructor(
    readonly organizationId: string,
    readonly callerId: string,
    readonly memberId: string,
  ) {
    super();
  }
}

@QueryHandler(GetMemberQuery)
export class GetMemberHandler implements IQueryHandler<GetMemberQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: OrganizationAccess,
    private readonly people: People,
  ) {}

  async execute({ organizationId, callerId, memberId }: GetMemberQuery) {
    await this.access.requireMember(organizationId, callerId);
    const member = await this.store.get<MemberDoc>(MEMBERS, memberDocId(organizationId, memberId));
    if (!member) throw new NotFound(`User ${memberId} is not a member of this organization`);
    return presentMember(member, await this.people.byId(memberId), this.urls);
  }
}
