import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { OrganizationAccess } from '../../public/organization-access';
import { presentOrganization } from '../presenters';
import { ORGANIZATIONS, type OrganizationDoc } from '../read-models';

export interface OrganizationView {
  body: ReturnType<typeof presentOrganization>;
  revision: number;
}

export class GetOrganizationQuery extends Query<OrganizationView> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: OrganizationAccess,
  ) {}

  async execute({ organizationId, userId }: GetOrganizationQuery): Promise<OrganizationView> {
    const role = await this.access.requireMember(organizationId, userId);
    const organization = await this.store.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
    if (!organization) throw new NotFound(`Organization ${organizationId} not found`);
    return { body: presentOrganization(organization, role, this.urls), revision: organization.revision };
  }
}
