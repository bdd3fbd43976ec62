import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  NotFound,
  PUBLIC_URLS,
  type PointInTime,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  requireDocumentAt,
} from '@app/kernel';
import { customFieldsStream } from '../../domain';
import { customFieldsProjection } from '../../projections/custom-fields.projection';
import { OrganizationAccess } from '@app/identity';
import { CUSTOM_FIELDS, type CustomFieldDoc } from '../read-models';
import { presentCustomField } from '../presenters';

export type CustomFieldBody = ReturnType<typeof presentCustomField>;

/** One custom field by name; any member of the organization may read it. */
export class GetCustomFieldQuery extends Query<CustomFieldBody> {
  constructor(
    readonly organizationId: string,
    readonly name: string,
    readonly userId: string,
    /** Answer the field as it was then (with today's access check). */
    readonly at?: PointInTime,
  ) {
    super();
  }
}

@QueryHandler(GetCustomFieldQuery)
export class GetCustomFieldHandler implements IQueryHandler<GetCustomFieldQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ organizationId, name, userId, at }: GetCustomFieldQuery): Promise<CustomFieldBody> {
    await this.organizations.requireMember(organizationId, userId);
    const found = await this.store.find<CustomFieldDoc>(CUSTOM_FIELDS, { filter: { organizationId, name }, limit: 1 });
    const current = found.items[0];
    if (!current) throw new NotFound(`No matching custom field found: ${name}`);
    const field = at
      ? await requireDocumentAt(
          this.events,
          customFieldsProjection,
          customFieldsStream(organizationId),
          current.id,
          at,
          `custom field ${name}`,
        )
      : current;
    return presentCustomField(field, this.urls);
  }
}
