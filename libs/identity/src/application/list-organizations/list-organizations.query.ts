import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  DEFAULT_LIMIT,
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
} from '@app/kernel';
import { presentOrganization } from '../presenters';
import { MEMBERS, type MemberDoc, ORGANIZATIONS, type OrganizationDoc } from '../read-models';

export class ListOrganizationsQuery extends Query<ListResponse<ReturnType<typeof presentOrganization>>> {
  constructor(
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** The organizations the caller belongs to, in the order they joined them. */
@QueryHandler(ListOrganizationsQuery)
export class ListOrganizationsHandler implements IQueryHandler<ListOrganizationsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  async execute({ userId, list }: ListOrganizationsQuery) {
    const scope = `orgs:${userId}`;
    const memberships = await this.store.find<MemberDoc>(MEMBERS, {
      filter: { userId },
      sort: [['joinedAt', 1]],
      limit: list.limit ?? DEFAULT_LIMIT,
      after: this.cursors.decode(scope, list.page),
    });
    const organizations = await this.store.getMany<OrganizationDoc>(
      ORGANIZATIONS,
      memberships.items.map((m) => m.organizationId),
    );
    const byId = new Map(organizations.map((org) => [org.id, org]));
    const items = memberships.items.flatMap((membership) => {
      const organization = byId.get(membership.organizationId);
      return organization ? [presentOrganization(organization, membership.role, this.urls)] : [];
    });
    const response: ListResponse<ReturnType<typeof presentOrganization>> = { items, count: memberships.total };
    if (memberships.next) response.next = { page: this.cursors.encode(scope, memberships.next) };
    return response;
  }
}
