import { type Projection } from '@app/kernel';
import { OPENAPI_SPEC_EVENTS, type OpenAPISpecEvent } from '../domain';
import {
  OPENAPI_SPECS,
  OPENAPI_SPEC_VERSIONS,
  type OpenAPISpecDoc,
  type OpenAPISpecVersionDoc,
  openApiSpecDocId,
} from '../application/openapi-read-models';

function evolveSpec(doc: OpenAPISpecDoc | null, event: OpenAPISpecEvent, revision: number): OpenAPISpecDoc | null {
  switch (event.type) {
    case 'OpenAPISpecCreated': {
      const { organizationId, slug, specId, source, createdAt } = event.data;
      return {
        id: openApiSpecDocId(organizationId, slug),
        specId,
        organizationId,
        slug,
        ...(source.kind === 'url' ? { sourceURL: source.url } : {}),
        processingState: 'pending',
        createdAt,
        updatedAt: createdAt,
        version: revision,
      };
    }
    case 'OpenAPISpecSourceChanged': {
      if (!doc) return null;
      // a new source: pending again, the last error forgotten, the last version kept until a newer one exists
      const {
        sourceURL: _url,
        lastProcessErrorCode: _code,
        lastProcessedErrors: _errors,
        lastProcessedErrorCount: _count,
        ...rest
      } = doc;
      const { source, changedAt } = event.data;
      return {
        ...rest,
        ...(source.kind === 'url' ? { sourceURL: source.url } : {}),
        processingState: 'pending',
        updatedAt: changedAt,
        version: revision,
      };
    }
    case 'OpenAPISpecProcessingStarted':
      return doc && { ...doc, processingState: 'progress', version: revision };
    case 'OpenAPISpecVersionCreated':
      return (
        doc && {
          ...doc,
          processingState: 'complete',
          lastVersion: event.data.versionId,
          lastProcessedAt: event.data.processedAt,
          version: revision,
        }
      );
    case 'OpenAPISpecProcessingFailed':
      return (
        doc && {
          ...doc,
          processingState: 'complete',
          lastProcessedAt: event.data.processedAt,
          lastProcessErrorCode: event.data.errorCode,
          lastProcessedErrors: event.data.errors,
          lastProcessedErrorCount: event.data.errorCount,
          version: revision,
        }
      );
    case 'OpenAPISpecDeleted':
      return null;
  }
}

export const openApiSpecsProjection: Projection<OpenAPISpecDoc> = {
  name: OPENAPI_SPECS,
  version: 1,
  collection: OPENAPI_SPECS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: OPENAPI_SPEC_EVENTS,
  idOf: (event) => openApiSpecDocId(String(event.data.organizationId), String(event.data.slug)),
  evolve: (doc, event) => evolveSpec(doc, event as unknown as OpenAPISpecEvent, event.revision),
};

/** Versions outlive nothing: a query shows them only while their spec (same spec id) exists. */
export const openApiSpecVersionsProjection: Projection<OpenAPISpecVersionDoc> = {
  name: OPENAPI_SPEC_VERSIONS,
  version: 1,
  collection: OPENAPI_SPEC_VERSIONS,
  indexes: [
    {
      fields: [
        ['specId', 1],
        ['revision', 1],
      ],
    },
  ],
  handles: ['OpenAPISpecVersionCreated'],
  idOf: (event) => String(event.data.versionId),
  evolve(_doc, recorded) {
    const event = recorded as unknown as OpenAPISpecEvent;
    if (event.type !== 'OpenAPISpecVersionCreated') return null;
    const { versionId, specId, organizationId, slug, blob, size, format, specification, specVersion } = event.data;
    return {
      id: versionId,
      specId,
      organizationId,
      slug,
      blob,
      size,
      format,
      specification,
      specVersion,
      ...(event.data.title !== undefined ? { title: event.data.title } : {}),
      ...(event.data.sourceURL !== undefined ? { sourceURL: event.data.sourceURL } : {}),
      createdAt: event.data.processedAt,
      revision: recorded.revision,
    };
  },
};
