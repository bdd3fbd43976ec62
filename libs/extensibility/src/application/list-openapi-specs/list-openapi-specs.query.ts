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
import { OPENAPI_SPECS, type OpenAPISpecDoc, presentOpenApiSpec } from '../openapi-read-models';

/** An organization's OpenAPI specs, oldest first; any member may list them. */
export class ListOpenAPISpecsQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListOpenAPISpecsQuery)
export class ListOpenAPISpecsHandler implements IQueryHandler<ListOpenAPISpecsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListOpenAPISpecsQuery) {
    const role = await this.organizations.requireMember(organizationId, userId);
    return readPage<OpenAPISpecDoc, unknown>(
      this.store,
      this.cursors,
      {
        collection: OPENAPI_SPECS,
        scope: `openapi:${organizationId}`,
        filter: { organizationId },
        sort: [['createdAt', 1]],
        query: params,
      },
      (doc) => presentOpenApiSpec(doc, this.urls, role),
    );
  }
}
