import { at, given } from '@app/kernel/testing';
import {
  type OpenAPISpecCommand,
  type OpenAPISpecEvent,
  type OpenAPISpecSource,
  checkSourceInput,
  openApiSpecDecider,
} from './openapi-spec.decider';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const ids = { organizationId: 'org-1', slug: 'petstore' };
const spec = { ...ids, specId: 'spec-1' };
const urlSource: OpenAPISpecSource = { kind: 'url', url: 'https://example.com/openapi.yaml' };
const textSource: OpenAPISpecSource = { kind: 'text', blob: 'a'.repeat(64), size: 120 };
const document = {
  blob: 'b'.repeat(64),
  size: 300,
  format: 'yaml' as const,
  specification: 'openapi' as const,
  specVersion: '3.1.0',
  title: 'Petstore',
};

const created: OpenAPISpecEvent = {
  type: 'OpenAPISpecCreated',
  data: { ...spec, sourceId: 'src-1', source: urlSource, createdAt: T0 },
};
const changed: OpenAPISpecEvent = {
  type: 'OpenAPISpecSourceChanged',
  data: { ...spec, sourceId: 'src-2', source: textSource, changedAt: T0 },
};
const started = (sourceId = 'src-1'): OpenAPISpecEvent => ({
  type: 'OpenAPISpecProcessingStarted',
  data: { ...spec, sourceId, startedAt: T0 },
});
const processed: OpenAPISpecEvent = {
  type: 'OpenAPISpecVersionCreated',
  data: { ...spec, sourceId: 'src-1', versionId: 'src-1', sourceURL: urlSource.url, ...document, processedAt: T0 },
};
const deleted: OpenAPISpecEvent = { type: 'OpenAPISpecDeleted', data: { ...spec, deletedAt: T0 } };

const command = (type: OpenAPISpecCommand['type'], data: Record<string, unknown> = {}) =>
  ({ type, data: { ...ids, ...data }, metadata: at(T1) }) as OpenAPISpecCommand;
const create = (data: Record<string, unknown> = {}) =>
  command('CreateOpenAPISpec', { specId: 'spec-1', sourceId: 'src-1', source: urlSource, ...data });
const set = (data: Record<string, unknown> = {}) =>
  command('SetOpenAPISpecSource', { specId: 'spec-9', sourceId: 'src-2', source: textSource, ...data });

describe('OpenAPI spec decider', () => {
  describe('CreateOpenAPISpec', () => {
    it('creates a spec whose first source is pending', () => {
      given(openApiSpecDecider)
        .when(create())
        .then([{ ...created, data: { ...created.data, createdAt: T1 } } as OpenAPISpecEvent]);
      given(openApiSpecDecider, [created]).thenState({
        status: 'active',
        specId: 'spec-1',
        organizationId: 'org-1',
        sourceId: 'src-1',
        source: urlSource,
        processing: 'pending',
      });
    });

    it('wants a slug of 1 to 100 lower-case letters and digits joined by single dashes', () => {
      for (const slug of ['', 'Petstore', 'pet_store', 'pet--store', '-pet', 'pet-', 'pet store', 'a'.repeat(101)]) {
        given(openApiSpecDecider).when(create({ slug })).thenThrows('validation', /^slug/);
      }
      expect(openApiSpecDecider.decide(create({ slug: 'a'.repeat(100) }), { status: 'absent' })).toHaveLength(1);
      expect(openApiSpecDecider.decide(create({ slug: 'v2-pet-store' }), { status: 'absent' })).toHaveLength(1);
    });

    it('refuses a slug in use (409), and takes a deleted one again under a new id', () => {
      given(openApiSpecDecider, [created])
        .when(create())
        .thenThrows('illegal-state', /already exists/);
      given(openApiSpecDecider, [created, deleted])
        .when(create({ specId: 'spec-2' }))
        .then([{ ...created, data: { ...created.data, specId: 'spec-2', createdAt: T1 } } as OpenAPISpecEvent]);
    });

    it('refuses a URL that is not http(s) or longer than 2048', () => {
      given(openApiSpecDecider)
        .when(create({ source: { kind: 'url', url: 'file:///etc/passwd' } }))
        .thenThrows('validation', /^source\.url/);
      given(openApiSpecDecider)
        .when(create({ source: { kind: 'url', url: `https://example.com/${'x'.repeat(2030)}` } }))
        .thenThrows('validation', /^source\.url/);
    });
  });

  describe('the source field as sent', () => {
    it('is {url} or {text}, exactly one, naming what is wrong', () => {
      expect(checkSourceInput({ url: 'https://example.com/a.json' })).toEqual({ url: 'https://example.com/a.json' });
      expect(checkSourceInput({ text: 'openapi: 3.1.0' })).toEqual({ text: 'openapi: 3.1.0' });
      const refusal = (source: unknown) => {
        try {
          checkSourceInput(source);
        } catch (error) {
          return (error as Error).message;
        }
        return 'accepted';
      };
      expect(refusal('https://example.com')).toMatch(/^source:/);
      expect(refusal({})).toMatch(/^source: must have exactly one/);
      expect(refusal({ url: 'https://example.com', text: 'x' })).toMatch(/^source: must have exactly one/);
      expect(refusal({ url: 'https://example.com', extra: 1 })).toMatch(/^source\.extra: unknown field/);
      expect(refusal({ text: '' })).toMatch(/^source\.text/);
      expect(refusal({ text: 12 })).toMatch(/^source\.text/);
      expect(refusal({ url: 'not a url' })).toMatch(/^source\.url/);
    });
  });

  describe('SetOpenAPISpecSource (PUT)', () => {
    it('creates the spec when the slug is free', () => {
      given(openApiSpecDecider)
        .when(set())
        .then([
          {
            type: 'OpenAPISpecCreated',
            data: { ...ids, specId: 'spec-9', sourceId: 'src-2', source: textSource, createdAt: T1 },
          },
        ]);
    });

    it('gives an existing spec a new pending source, whatever the state of the last one', () => {
      for (const history of [[created], [created, started()], [created, started(), processed]]) {
        given(openApiSpecDecider, history)
          .when(set())
          .then([{ ...changed, data: { ...changed.data, changedAt: T1 } } as OpenAPISpecEvent]);
      }
    });
  });

  describe('processing', () => {
    it('starts the newest source once', () => {
      given(openApiSpecDecider, [created])
        .when(command('StartOpenAPISpecProcessing', { sourceId: 'src-1' }))
        .then([{ ...started(), data: { ...started().data, startedAt: T1 } } as OpenAPISpecEvent]);
      given(openApiSpecDecider, [created, started()])
        .when(command('StartOpenAPISpecProcessing', { sourceId: 'src-1' }))
        .thenNothing();
    });

    it('records a version of the newest source, named after the source', () => {
      given(openApiSpecDecider, [created, started()])
        .when(command('RecordOpenAPISpecVersion', { sourceId: 'src-1', document }))
        .then([{ ...processed, data: { ...processed.data, processedAt: T1 } } as OpenAPISpecEvent]);
    });

    it('records a failure with its code, keeping at most 10 messages', () => {
      const errors = Array.from({ length: 12 }, (_, n) => `error ${n}`);
      given(openApiSpecDecider, [created, started()])
        .when(command('RecordOpenAPISpecFailure', { sourceId: 'src-1', errorCode: 'PARSE_ERROR', errors }))
        .then([
          {
            type: 'OpenAPISpecProcessingFailed',
            data: {
              ...spec,
              sourceId: 'src-1',
              errorCode: 'PARSE_ERROR',
              errors: errors.slice(0, 10),
              errorCount: 12,
              processedAt: T1,
            },
          },
        ]);
    });

    it('drops the result of a superseded source, of a deleted spec, and a result recorded already', () => {
      const record = command('RecordOpenAPISpecVersion', { sourceId: 'src-1', document });
      const fail = command('RecordOpenAPISpecFailure', { sourceId: 'src-1', errorCode: 'FETCH_ERROR', errors: [] });
      for (const history of [
        [created, started(), changed],
        [created, started(), deleted],
        [created, started(), processed],
      ]) {
        given(openApiSpecDecider, history).when(record).thenNothing();
        given(openApiSpecDecider, history).when(fail).thenNothing();
      }
      given(openApiSpecDecider, [created, changed])
        .when(command('StartOpenAPISpecProcessing', { sourceId: 'src-1' }))
        .thenNothing();
    });
  });

  describe('DeleteOpenAPISpec', () => {
    it('deletes, does nothing the second time, and is not found when never created', () => {
      given(openApiSpecDecider, [created])
        .when(command('DeleteOpenAPISpec'))
        .then([{ type: 'OpenAPISpecDeleted', data: { ...spec, deletedAt: T1 } }]);
      given(openApiSpecDecider, [created, deleted]).when(command('DeleteOpenAPISpec')).thenNothing();
      given(openApiSpecDecider).when(command('DeleteOpenAPISpec')).thenThrows('not-found');
    });
  });
});
