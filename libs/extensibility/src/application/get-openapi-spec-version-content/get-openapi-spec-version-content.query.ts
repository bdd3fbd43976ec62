import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { BLOB_STORE, type BlobStore, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { openApiVersionPath } from '../openapi-read-models';
import { findOpenApiVersion } from '../get-openapi-spec-version/get-openapi-spec-version.query';
import { decodeText, readDocument } from '../process-openapi-spec/openapi-document';

/**
 * What a version holds: `filesystem` maps the document's file name (`openapi.json` or `openapi.yaml`) to the
 * document as parsed, with its `$ref`s as written; `url` (spec 0.137.0) and `urls.source` (0.202.0) say where it
 * came from; `urls.public` is null, as specs are private. `format` (beyond the spec) says which the stored text is.
 */
export class GetOpenAPISpecVersionContentQuery extends Query<unknown> {
  constructor(
    readonly organizationId: string,
    readonly slug: string,
    readonly versionId: string,
    readonly userId: string,
    /** The text exactly as processed (`{text, format}`, spec 0.202.0's raw content) instead of the parsed document. */
    readonly raw = false,
  ) {
    super();
  }
}

@QueryHandler(GetOpenAPISpecVersionContentQuery)
export class GetOpenAPISpecVersionContentHandler implements IQueryHandler<GetOpenAPISpecVersionContentQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, slug, versionId, userId, raw }: GetOpenAPISpecVersionContentQuery) {
    const version = await findOpenApiVersion(this.store, this.organizations, organizationId, slug, versionId, userId);
    const bytes = await this.blobs.get(version.blob);
    if (!bytes) throw new Error(`the document of OpenAPI version ${version.id} is missing from the blob store`);
    const text = decodeText(bytes);
    if (raw) return { text, format: version.format };
    const source =
      version.sourceURL ?? `${this.urls.api}${openApiVersionPath(organizationId, slug, version.id)}/content`;
    return {
      filesystem: { [`openapi.${version.format}`]: (await readDocument(text)).value },
      url: source,
      urls: { source, public: null },
      format: version.format,
    };
  }
}
