import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  KeptBodies,
  NotFound,
  PUBLIC_URLS,
  type PointInTime,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  requireDocumentAt,
} from '@app/kernel';
import { organizationStream } from '../../domain';
import { organizationsProjection } from '../../projections/organizations.projection';
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
    /** Answer the organization as it was then (with today's access check). */
    readonly at?: PointInTime,
  ) {
    super();
  }
}

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery> {
  /** The body of an organization per document and role, serialised once (see KeptBodies). */
  private readonly bodies = new KeptBodies<OrganizationDoc, OrganizationView['body']>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: OrganizationAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ organizationId, userId, at }: GetOrganizationQuery): Promise<OrganizationView> {
    const role = await this.access.requireMember(organizationId, userId);
    const organization = at
      ? await requireDocumentAt(
          this.events,
          organizationsProjection,
          organizationStream(organizationId),
          organizationId,
          at,
          `Organization ${organizationId}`,
        )
      : await this.store.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
    if (!organization) throw new NotFound(`Organization ${organizationId} not found`);
    const body = this.bodies.of(organization, String(role), () => presentOrganization(organization, role, this.urls));
    return { body, revision: organization.revision };
  }
}
