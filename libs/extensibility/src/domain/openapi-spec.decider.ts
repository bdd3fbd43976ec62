import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';
import { checkLength, codePoints } from './text';

/**
 * One stream per slug of an organization. The slug is the spec's address (GET, PUT and DELETE name it), so
 * keeping one stream per slug makes "one spec per slug" the stream's own rule: two POSTs of one slug meet on one
 * stream and the second is refused. A spec deleted and created again under the same slug gets a new id, and its
 * older versions stay behind with the old id.
 */
export const openApiSpecStream = (organizationId: string, slug: string) => `openapispec-${organizationId}.${slug}`;

export const OPENAPI_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const OPENAPI_LIMITS = { slug: 100, url: 2048 };
/** Error messages kept from one failed processing (the spec's `lastProcessedErrors` is truncated like this). */
export const OPENAPI_MAX_ERRORS = 10;

export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type OpenAPIProcessErrorCode = (typeof OPENAPI_ERROR_CODES)[number];

/** Where a spec's document comes from. A text is kept in the blob store; events carry its key. */
export type OpenAPISpecSource = { kind: 'url'; url: string } | { kind: 'text'; blob: string; size: number };

/** What the API accepts as `source`, before the text is stored: `{url}` or `{text}`, exactly one. */
export type OpenAPISourceInput = { url: string } | { text: string };

/** Checks the shape of a `source` body field, naming the part at fault; pure, so the HTTP layer and tests share it. */
export function checkSourceInput(source: unknown): OpenAPISourceInput {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw new ValidationFailed('source: must be an object with either `url` or `text`');
  }
  const keys = Object.keys(source);
  const unknown = keys.find((key) => key !== 'url' && key !== 'text');
  if (unknown !== undefined) throw new ValidationFailed(`source.${unknown}: unknown field`);
  if (keys.length !== 1) throw new ValidationFailed('source: must have exactly one of `url` or `text`');
  const record = source as Record<string, unknown>;
  if ('url' in record) {
    const url = record.url;
    if (typeof url !== 'string') throw new ValidationFailed('source.url: must be a string');
    checkLength('source.url', url, OPENAPI_LIMITS.url, 1);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ValidationFailed('source.url: must be an absolute URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ValidationFailed('source.url: must be an http or https URL');
    }
    return { url };
  }
  const text = record.text;
  if (typeof text !== 'string') throw new ValidationFailed('source.text: must be a string');
  if (text.length === 0) throw new ValidationFailed('source.text: must not be empty');
  return { text };
}

export function checkSlug(slug: string): void {
  checkLength('slug', slug, OPENAPI_LIMITS.slug, 1);
  if (!OPENAPI_SLUG_PATTERN.test(slug)) {
    throw new ValidationFailed(
      'slug: must be lower-case letters and digits in groups joined by single dashes (^[a-z0-9]+(?:-[a-z0-9]+)*$)',
    );
  }
}

function checkSource(source: OpenAPISpecSource): void {
  if (source.kind === 'url') checkSourceInput({ url: source.url });
  else if (!/^[0-9a-f]{64}$/.test(source.blob)) throw new ValidationFailed('source.text: not stored');
}

type Ids = { organizationId: string; slug: string };
type Cmd<Type extends string, Data> = Command<Type, Ids & Data>;

/** POST: a new spec; refused when the slug is taken. */
export type CreateOpenAPISpec = Cmd<
  'CreateOpenAPISpec',
  { specId: string; sourceId: string; source: OpenAPISpecSource }
>;
/** PUT: a new source for the spec, or a new spec (with `specId`) when the slug is free. */
export type SetOpenAPISpecSource = Cmd<
  'SetOpenAPISpecSource',
  { specId: string; sourceId: string; source: OpenAPISpecSource }
>;
export type DeleteOpenAPISpec = Cmd<'DeleteOpenAPISpec', object>;
/** The processing steps, sent by the processing process; each names the source it is about. */
export type StartOpenAPISpecProcessing = Cmd<'StartOpenAPISpecProcessing', { sourceId: string }>;
export type RecordOpenAPISpecVersion = Cmd<
  'RecordOpenAPISpecVersion',
  { sourceId: string; document: ProcessedDocument }
>;
export type RecordOpenAPISpecFailure = Cmd<
  'RecordOpenAPISpecFailure',
  { sourceId: string; errorCode: OpenAPIProcessErrorCode; errors: string[] }
>;

export type OpenAPISpecCommand =
  | CreateOpenAPISpec
  | SetOpenAPISpecSource
  | DeleteOpenAPISpec
  | StartOpenAPISpecProcessing
  | RecordOpenAPISpecVersion
  | RecordOpenAPISpecFailure;

/** A document that parsed and validated: where its bytes are, and what it turned out to be. */
export type ProcessedDocument = {
  blob: string;
  size: number;
  format: 'json' | 'yaml';
  specification: 'openapi' | 'swagger';
  /** The document's `openapi` or `swagger` field (`3.1.0`, `2.0`). */
  specVersion: string;
  /** The document's `info.title`, when a string. */
  title?: string;
};

type SpecIds = Ids & { specId: string };

export type OpenAPISpecCreated = DomainEvent<
  'OpenAPISpecCreated',
  SpecIds & { sourceId: string; source: OpenAPISpecSource; createdAt: string }
>;
/** A PUT on an existing spec: processing starts again from `pending`, and the last error is forgotten. */
export type OpenAPISpecSourceChanged = DomainEvent<
  'OpenAPISpecSourceChanged',
  SpecIds & { sourceId: string; source: OpenAPISpecSource; changedAt: string }
>;
export type OpenAPISpecProcessingStarted = DomainEvent<
  'OpenAPISpecProcessingStarted',
  SpecIds & { sourceId: string; startedAt: string }
>;
/** The source became a version; the version's id is the source's id (one version per source at most). */
export type OpenAPISpecVersionCreated = DomainEvent<
  'OpenAPISpecVersionCreated',
  SpecIds & { sourceId: string; versionId: string; sourceURL?: string; processedAt: string } & ProcessedDocument
>;
export type OpenAPISpecProcessingFailed = DomainEvent<
  'OpenAPISpecProcessingFailed',
  SpecIds & {
    sourceId: string;
    errorCode: OpenAPIProcessErrorCode;
    /** The first messages (up to OPENAPI_MAX_ERRORS); `errorCount` counts them all. */
    errors: string[];
    errorCount: number;
    processedAt: string;
  }
>;
export type OpenAPISpecDeleted = DomainEvent<'OpenAPISpecDeleted', SpecIds & { deletedAt: string }>;

export type OpenAPISpecEvent =
  | OpenAPISpecCreated
  | OpenAPISpecSourceChanged
  | OpenAPISpecProcessingStarted
  | OpenAPISpecVersionCreated
  | OpenAPISpecProcessingFailed
  | OpenAPISpecDeleted;

export const OPENAPI_SPEC_EVENTS = [
  'OpenAPISpecCreated',
  'OpenAPISpecSourceChanged',
  'OpenAPISpecProcessingStarted',
  'OpenAPISpecVersionCreated',
  'OpenAPISpecProcessingFailed',
  'OpenAPISpecDeleted',
] as const;

export type OpenAPIProcessingState = 'pending' | 'progress' | 'complete';

export type OpenAPISpecState =
  | { status: 'absent' }
  | {
      status: 'active';
      specId: string;
      organizationId: string;
      /** The newest source: only its processing may record a result. */
      sourceId: string;
      source: OpenAPISpecSource;
      processing: OpenAPIProcessingState;
    }
  | { status: 'deleted'; specId: string; organizationId: string };

function created(command: CreateOpenAPISpec | SetOpenAPISpecSource, now: string): OpenAPISpecCreated {
  const { organizationId, slug, specId, sourceId, source } = command.data;
  return { type: 'OpenAPISpecCreated', data: { organizationId, slug, specId, sourceId, source, createdAt: now } };
}

function decide(command: OpenAPISpecCommand, state: OpenAPISpecState): OpenAPISpecEvent[] {
  const { organizationId, slug } = command.data;
  const now = command.metadata.now;
  const missing = () => new NotFound(`OpenAPI spec ${slug} not found`);
  // the stream is named after the organization, so another organization's spec is never this state
  if (state.status !== 'absent' && state.organizationId !== organizationId) throw missing();
  switch (command.type) {
    case 'CreateOpenAPISpec':
      checkSlug(slug);
      checkSource(command.data.source);
      if (state.status === 'active') throw new IllegalState(`An OpenAPI spec with the slug ${slug} already exists`);
      return [created(command, now)];
    case 'SetOpenAPISpecSource': {
      checkSlug(slug);
      checkSource(command.data.source);
      if (state.status !== 'active') return [created(command, now)];
      const { sourceId, source } = command.data;
      return [
        {
          type: 'OpenAPISpecSourceChanged',
          data: { organizationId, slug, specId: state.specId, sourceId, source, changedAt: now },
        },
      ];
    }
    case 'DeleteOpenAPISpec':
      if (state.status === 'absent') throw missing();
      if (state.status === 'deleted') return [];
      return [{ type: 'OpenAPISpecDeleted', data: { organizationId, slug, specId: state.specId, deletedAt: now } }];
    case 'StartOpenAPISpecProcessing':
      // a source replaced or a spec deleted meanwhile: nothing to start (the newer source has its own turn)
      if (!isCurrent(state, command.data.sourceId) || state.processing !== 'pending') return [];
      return [
        {
          type: 'OpenAPISpecProcessingStarted',
          data: { organizationId, slug, specId: state.specId, sourceId: state.sourceId, startedAt: now },
        },
      ];
    case 'RecordOpenAPISpecVersion': {
      // the result of a superseded source, or one recorded already (a redelivery), is dropped
      if (!isCurrent(state, command.data.sourceId) || state.processing === 'complete') return [];
      const { document } = command.data;
      return [
        {
          type: 'OpenAPISpecVersionCreated',
          data: {
            organizationId,
            slug,
            specId: state.specId,
            sourceId: state.sourceId,
            versionId: state.sourceId,
            ...(state.source.kind === 'url' ? { sourceURL: state.source.url } : {}),
            ...document,
            processedAt: now,
          },
        },
      ];
    }
    case 'RecordOpenAPISpecFailure': {
      if (!isCurrent(state, command.data.sourceId) || state.processing === 'complete') return [];
      const errors = command.data.errors.slice(0, OPENAPI_MAX_ERRORS).map((message) => shorten(message, 1000));
      return [
        {
          type: 'OpenAPISpecProcessingFailed',
          data: {
            organizationId,
            slug,
            specId: state.specId,
            sourceId: state.sourceId,
            errorCode: command.data.errorCode,
            errors,
            errorCount: command.data.errors.length,
            processedAt: now,
          },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

function isCurrent(
  state: OpenAPISpecState,
  sourceId: string,
): state is Extract<OpenAPISpecState, { status: 'active' }> {
  return state.status === 'active' && state.sourceId === sourceId;
}

const shorten = (text: string, max: number) => (codePoints(text) > max ? [...text].slice(0, max).join('') : text);

function evolve(state: OpenAPISpecState, event: OpenAPISpecEvent): OpenAPISpecState {
  switch (event.type) {
    case 'OpenAPISpecCreated':
      return {
        status: 'active',
        specId: event.data.specId,
        organizationId: event.data.organizationId,
        sourceId: event.data.sourceId,
        source: event.data.source,
        processing: 'pending',
      };
    case 'OpenAPISpecSourceChanged':
      if (state.status !== 'active') return state;
      return { ...state, sourceId: event.data.sourceId, source: event.data.source, processing: 'pending' };
    case 'OpenAPISpecProcessingStarted':
      return state.status === 'active' ? { ...state, processing: 'progress' } : state;
    case 'OpenAPISpecVersionCreated':
    case 'OpenAPISpecProcessingFailed':
      return state.status === 'active' ? { ...state, processing: 'complete' } : state;
    case 'OpenAPISpecDeleted':
      return { status: 'deleted', specId: event.data.specId, organizationId: event.data.organizationId };
    default:
      return assertNever(event);
  }
}

export const openApiSpecDecider: Decider<OpenAPISpecState, OpenAPISpecCommand, OpenAPISpecEvent> = {
  initialState: () => ({ status: 'absent' }),
  decide,
  evolve,
};
