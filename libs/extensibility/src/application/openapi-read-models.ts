import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { type OpenAPIProcessErrorCode, type OpenAPIProcessingState } from '../domain';

/** Read models of OpenAPI specs (written by ../projections/openapi-specs.projection.ts). */
export const OPENAPI_SPECS = 'openapi_specs';
export const OPENAPI_SPEC_VERSIONS = 'openapi_spec_versions';

/** One spec, found by its address: the id is `<organizationId>:<slug>`. */
export interface OpenAPISpecDoc {
  id: string;
  specId: string;
  organizationId: string;
  slug: string;
  sourceURL?: string;
  processingState: OpenAPIProcessingState;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: OpenAPIProcessErrorCode;
  lastProcessedErrors?: string[];
  lastProcessedErrorCount?: number;
  createdAt: string;
  updatedAt: string;
  /** Revision of the spec's stream (the ETag). */
  version: number;
  [key: string]: unknown;
}

export const openApiSpecDocId = (organizationId: string, slug: string) => `${organizationId}:${slug}`;

/** One processed version (id: the version id). */
export interface OpenAPISpecVersionDoc {
  id: string;
  specId: string;
  organizationId: string;
  slug: string;
  blob: string;
  size: number;
  format: 'json' | 'yaml';
  specification: 'openapi' | 'swagger';
  specVersion: string;
  title?: string;
  sourceURL?: string;
  createdAt: string;
  /** Revision of the spec's stream that recorded the version: orders versions even within one millisecond. */
  revision: number;
  [key: string]: unknown;
}

export const OPENAPI_READ_MODELS = [OPENAPI_SPECS, OPENAPI_SPEC_VERSIONS];

export const openApiSpecPath = (organizationId: string, slug: string) => `/orgs/${organizationId}/openapi/${slug}`;
export const openApiVersionPath = (organizationId: string, slug: string, versionId: string) =>
  `${openApiSpecPath(organizationId, slug)}/versions/${versionId}`;

/** A spec in the spec's shape; `edit` is for the organization's admins. */
export function presentOpenApiSpec(doc: OpenAPISpecDoc, urls: PublicUrls, role: RoleOrGuest) {
  const path = openApiSpecPath(doc.organizationId, doc.slug);
  return {
    object: 'openapi-spec' as const,
    id: doc.specId,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    slug: doc.slug,
    ...(doc.sourceURL !== undefined ? { sourceURL: doc.sourceURL } : {}),
    processingState: doc.processingState,
    ...(doc.lastVersion !== undefined ? { lastVersion: doc.lastVersion } : {}),
    ...(doc.lastProcessedAt !== undefined ? { lastProcessedAt: doc.lastProcessedAt } : {}),
    ...(doc.lastProcessErrorCode !== undefined
      ? {
          lastProcessErrorCode: doc.lastProcessErrorCode,
          lastProcessedErrors: (doc.lastProcessedErrors ?? []).map((message) => ({ message })),
          lastProcessedErrorCount: doc.lastProcessedErrorCount ?? (doc.lastProcessedErrors ?? []).length,
        }
      : {}),
    permissions: { view: true, edit: atLeast(role, 'admin') },
    urls: { location: urls.api + path, app: `${urls.app}/o/${doc.organizationId}/openapi/${doc.slug}` },
  };
}

/** A version: `url` is where its document can be read (the source URL, or the stored copy's content here). */
export function presentOpenApiVersion(doc: OpenAPISpecVersionDoc, urls: PublicUrls) {
  const location = urls.api + openApiVersionPath(doc.organizationId, doc.slug, doc.id);
  return {
    object: 'openapi-spec-version' as const,
    id: doc.id,
    createdAt: doc.createdAt,
    url: doc.sourceURL ?? `${location}/content`,
    urls: { location },
  };
}
