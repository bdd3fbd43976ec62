import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { OrganizationAccess } from '@app/identity';
import { OPENAPI_SPECS, type OpenAPISpecDoc, openApiSpecDocId, presentOpenApiSpec } from '../openapi-read-models';

export interface OpenAPISpecView {
  body: ReturnType<typeof presentOpenApiSpec>;
  /** Revision of the spec's stream, for the ETag. */
  version: number;
}

/** Finds a spec of an organization the caller is a member of (404 otherwise), with the caller's role. */
export async function findOpenApiSpec(
  store: ReadStore,
  organizations: OrganizationAccess,
  organizationId: string,
  slug: string,
  userId: string,
): Promise<{ doc: OpenAPISpecDoc; role: RoleOrGuest }> {
  const role = await organizations.requireMember(organizationId, userId);
  const doc = await store.get<OpenAPISpecDoc>(OPENAPI_SPECS, openApiSpecDocId(organizationId, slug));
  if (!doc || doc.organizationId !== organizationId) throw new NotFound(`OpenAPI spec ${slug} not found`);
  return { doc, role };
}

/** One OpenAPI spec by its slug; any member of its organization may read it. */
export class GetOpenAPISpecQuery extends Query<OpenAPISpecView> {
  constructor(
    readonly organizationId: string,
    readonly slug: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetOpenAPISpecQuery)
export class GetOpenAPISpecHandler implements IQueryHandler<GetOpenAPISpecQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, slug, userId }: GetOpenAPISpecQuery): Promise<OpenAPISpecView> {
    const { doc, role } = await findOpenApiSpec(this.store, this.organizations, organizationId, slug, userId);
    return { body: presentOpenApiSpec(doc, this.urls, role), version: doc.version };
  }
}
