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
import { OPENAPI_SPEC_VERSIONS, type OpenAPISpecVersionDoc, presentOpenApiVersion } from '../openapi-read-models';
import { findOpenApiSpec } from '../get-openapi-spec/get-openapi-spec.query';

/** The processed versions of a spec, newest first; any member of its organization may list them. */
export class ListOpenAPISpecVersionsQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly slug: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListOpenAPISpecVersionsQuery)
export class ListOpenAPISpecVersionsHandler implements IQueryHandler<ListOpenAPISpecVersionsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, slug, userId, params }: ListOpenAPISpecVersionsQuery) {
    const { doc } = await findOpenApiSpec(this.store, this.organizations, organizationId, slug, userId);
    return readPage<OpenAPISpecVersionDoc, unknown>(
      this.store,
      this.cursors,
      {
        collection: OPENAPI_SPEC_VERSIONS,
        scope: `openapi-versions:${doc.specId}`,
        filter: { specId: doc.specId },
        sort: [['revision', -1]],
        query: params,
      },
      (version) => presentOpenApiVersion(version, this.urls),
    );
  }
}
