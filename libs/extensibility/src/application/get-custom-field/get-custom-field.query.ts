import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
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
  ) {}

  async execute({ organizationId, name, userId }: GetCustomFieldQuery): Promise<CustomFieldBody> {
    await this.organizations.requireMember(organizationId, userId);
    const found = await this.store.find<CustomFieldDoc>(CUSTOM_FIELDS, { filter: { organizationId, name }, limit: 1 });
    const field = found.items[0];
    if (!field) throw new NotFound(`No matching custom field found: ${name}`);
    return presentCustomField(field, this.urls);
  }
}
