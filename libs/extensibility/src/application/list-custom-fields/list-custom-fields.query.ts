import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { CUSTOM_FIELDS, type CustomFieldDoc } from '../read-models';
import { presentCustomField } from '../presenters';

/** An organization's custom fields, oldest first; any member may list them. */
export class ListCustomFieldsQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListCustomFieldsQuery)
export class ListCustomFieldsHandler implements IQueryHandler<ListCustomFieldsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListCustomFieldsQuery) {
    await this.organizations.requireMember(organizationId, userId);
    return readPage<CustomFieldDoc, unknown>(
      this.store,
      this.cursors,
      {
        collection: CUSTOM_FIELDS,
        scope: `custom-fields:${organizationId}`,
        filter: { organizationId },
        sort: [['createdAt', 1]],
        query: params,
      },
      (doc) => presentCustomField(doc, this.urls),
    );
  }
}
