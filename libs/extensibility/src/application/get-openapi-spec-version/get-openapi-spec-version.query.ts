import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { OPENAPI_SPEC_VERSIONS, type OpenAPISpecVersionDoc, presentOpenApiVersion } from '../openapi-read-models';
import { findOpenApiSpec } from '../get-openapi-spec/get-openapi-spec.query';

/** `latest` names the spec's last processed version. */
export const LATEST = 'latest';

/** A version of a spec of an organization the caller is a member of; 404 when the spec has no such version. */
export async function findOpenApiVersion(
  store: ReadStore,
  organizations: OrganizationAccess,
  organizationId: string,
  slug: string,
  versionId: string,
  userId: string,
): Promise<OpenAPISpecVersionDoc> {
  const { doc: spec } = await findOpenApiSpec(store, organizations, organizationId, slug, userId);
  const id = versionId === LATEST ? spec.lastVersion : versionId;
  const version = id === undefined ? null : await store.get<OpenAPISpecVersionDoc>(OPENAPI_SPEC_VERSIONS, id);
  // versions of an earlier spec under the same slug (deleted, then created again) are not this spec's
  if (!version || version.specId !== spec.specId) {
    throw new NotFound(
      versionId === LATEST ? `OpenAPI spec ${slug} has no processed version yet` : `Version ${versionId} not found`,
    );
  }
  return version;
}

export class GetOpenAPISpecVersionQuery extends Query<ReturnType<typeof presentOpenApiVersion>> {
  constructor(
    readonly organizationId: string,
    readonly slug: string,
    readonly versionId: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetOpenAPISpecVersionQuery)
export class GetOpenAPISpecVersionHandler implements IQueryHandler<GetOpenAPISpecVersionQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, slug, versionId, userId }: GetOpenAPISpecVersionQuery) {
    const version = await findOpenApiVersion(this.store, this.organizations, organizationId, slug, versionId, userId);
    return presentOpenApiVersion(version, this.urls);
  }
}
