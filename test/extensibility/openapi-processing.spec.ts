import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CommandDispatcher,
  type EventStore,
  FetchRefused,
  type FetchedDocument,
  type Fetcher,
  ManualClock,
  type ProcessDefinition,
  type ReadStore,
  handleCommand,
} from '@app/kernel';
import { createEventStore } from '@app/event-store';
import { createReadStore } from '@app/read-store';
import { FilesystemBlobStore } from '@app/blob-store';
import {
  type OpenAPISpecCommand,
  type OpenAPISpecSource,
  openApiSpecDecider,
  openApiSpecStream,
} from '@app/extensibility/domain';
import { openApiProcessingProcess } from '@app/extensibility/processes/openapi-processing.process';
import {
  OpenAPISpecProcessor,
  type ProcessOpenAPISpecSource,
} from '@app/extensibility/application/process-openapi-spec/process-openapi-spec.command';
import { OpenApiValidator } from '@app/extensibility/application/process-openapi-spec/openapi-validator';
import { type RunningProcesses, runProcesses } from '../support/processes';

const START_TIME = '2026-03-01T09:00:00.000Z';
const ORG = 'org-1';
const SLUG = 'petstore';
const STREAM = openApiSpecStream(ORG, SLUG);

const PETSTORE_YAML = `openapi: 3.1.0
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        '200':
          description: the pets
`;
const SWAGGER_JSON = JSON.stringify({ swagger: '2.0', info: { title: 'Old', version: '1' }, paths: {} });

/** A fetcher the test answers by hand: each fetch waits until the test resolves or rejects it. */
class HandFetcher implements Fetcher {
  readonly calls: { url: string; resolve: (doc: FetchedDocument) => void; reject: (error: Error) => void }[] = [];
  private waiting: ((count: number) => void)[] = [];

  fetch(url: string): Promise<FetchedDocument> {
    return new Promise((resolve, reject) => {
      this.calls.push({ url, resolve, reject });
      for (const wake of this.waiting) wake(this.calls.length);
    });
  }

  send(): Promise<never> {
    return Promise.reject(new Error('the OpenAPI processing sends nothing'));
  }

  /** Resolves once `count` fetches have begun. */
  async started(count: number): Promise<void> {
    while (this.calls.length < count) await new Promise<number>((resolve) => this.waiting.push(resolve));
  }
}

const answer = (url: string, text: string): FetchedDocument => ({
  url,
  status: 200,
  contentType: 'application/yaml',
  body: Buffer.from(text, 'utf8'),
});

describe('OpenAPI processing process', () => {
  let dir: string;
  let events: EventStore;
  let reads: ReadStore;
  let blobs: FilesystemBlobStore;
  let clock: ManualClock;
  const running: RunningProcesses[] = [];
  const validators: OpenApiValidator[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-openapi-processing-'));
    events = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    reads = await createReadStore({ driver: 'sqlite', file: join(dir, 'read.sqlite') });
    blobs = new FilesystemBlobStore(join(dir, 'blobs'));
    clock = new ManualClock(START_TIME);
  });

  afterEach(async () => {
    for (const one of running.splice(0)) await one.stop();
    for (const one of validators.splice(0)) await one.close();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The process and its command handler, as the extensibility module wires them, over the given fetcher. */
  async function start(
    fetcher: Fetcher,
    validation = { timeoutMs: 10_000, maxMemoryMb: 256, maxExpandedChars: 1024 * 1024 },
  ) {
    const validator = new OpenApiValidator(validation);
    validators.push(validator);
    const processor = new OpenAPISpecProcessor(events, clock, fetcher, blobs, validator);
    const dispatch: CommandDispatcher = async (command) => {
      if (command.type !== 'ProcessOpenAPISpecSource') throw new Error(`unexpected command ${command.type}`);
      await processor.process(command as ProcessOpenAPISpecSource & typeof command);
    };
    const started = await runProcesses({
      events,
      reads,
      clock,
      dispatch,
      processes: [openApiProcessingProcess as ProcessDefinition<unknown>],
      tickMs: 60 * 60 * 1000,
    });
    running.push(started);
    return started;
  }

  async function spec(command: Omit<OpenAPISpecCommand, 'metadata'>) {
    const result = await handleCommand(events, openApiSpecDecider, STREAM, {
      ...command,
      metadata: { now: clock.now().toISOString() },
    } as OpenAPISpecCommand);
    return result.position!;
  }

  const textSource = async (text: string): Promise<OpenAPISpecSource> => {
    const stored = await blobs.put(Buffer.from(text, 'utf8'));
    return { kind: 'text', blob: stored.key, size: stored.size };
  };
  const create = (sourceId: string, source: OpenAPISpecSource) =>
    spec({ type: 'CreateOpenAPISpec', data: { organizationId: ORG, slug: SLUG, specId: 'spec-1', sourceId, source } });
  const replace = (sourceId: string, source: OpenAPISpecSource) =>
    spec({
      type: 'SetOpenAPISpecSource',
      data: { organizationId: ORG, slug: SLUG, specId: 'unused', sourceId, source },
    });

  const history = async () => (await events.readStream(STREAM)).map((event) => ({ type: event.type, ...event.data }));
  const types = async () => (await history()).map((event) => event.type);

  /** Polls the spec's stream until its last event is one of `types` (processing runs in the background). */
  async function until(...wanted: string[]) {
    for (let tries = 0; tries < 500; tries++) {
      const all = await types();
      if (wanted.includes(all[all.length - 1])) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`the spec stream never ended with ${wanted.join(' or ')}: ${(await types()).join(', ')}`);
  }

  it('processes a text source into a version stored in the blob store, at the clock time', async () => {
    const { processes } = await start(new HandFetcher());
    const source = await textSource(PETSTORE_YAML);
    clock.advance(1000);
    await processes.waitFor(await create('src-1', source));
    expect(await types()).toEqual(['OpenAPISpecCreated', 'OpenAPISpecProcessingStarted', 'OpenAPISpecVersionCreated']);
    const version = (await history())[2];
    expect(version).toMatchObject({
      versionId: 'src-1',
      blob: source.kind === 'text' ? source.blob : '',
      format: 'yaml',
      specification: 'openapi',
      specVersion: '3.1.0',
      title: 'Petstore',
      processedAt: '2026-03-01T09:00:01.000Z',
    });
    expect(version).not.toHaveProperty('sourceURL');
  });

  it('fetches a URL source through the fetcher and keeps what it brought back', async () => {
    const fetcher = new HandFetcher();
    await start(fetcher);
    await create('src-1', { kind: 'url', url: 'https://specs.example.com/old.json' });
    await fetcher.started(1);
    expect(fetcher.calls[0].url).toBe('https://specs.example.com/old.json');
    expect(await types()).toEqual(['OpenAPISpecCreated', 'OpenAPISpecProcessingStarted']);
    fetcher.calls[0].resolve(answer('https://specs.example.com/old.json', SWAGGER_JSON));
    await until('OpenAPISpecVersionCreated');
    const version = (await history())[2] as unknown as { blob: string; sourceURL: string; format: string };
    expect(version).toMatchObject({ sourceURL: 'https://specs.example.com/old.json', format: 'json' });
    expect((await blobs.get(version.blob))?.toString('utf8')).toBe(SWAGGER_JSON);
  });

  it.each([
    ['timeout', 'FETCH_TIMEOUT'],
    ['address', 'FETCH_ERROR'],
    ['status', 'FETCH_ERROR'],
    ['too-large', 'FETCH_ERROR'],
  ] as const)('ends complete with an error when the fetch is refused for %s: %s', async (reason, code) => {
    const fetcher = new HandFetcher();
    await start(fetcher);
    await create('src-1', { kind: 'url', url: 'https://specs.example.com/api.yaml' });
    await fetcher.started(1);
    clock.advance(10_000);
    fetcher.calls[0].reject(new FetchRefused(reason, `refused: ${reason}`));
    await until('OpenAPISpecProcessingFailed');
    expect((await history())[2]).toEqual({
      type: 'OpenAPISpecProcessingFailed',
      organizationId: ORG,
      slug: SLUG,
      specId: 'spec-1',
      sourceId: 'src-1',
      errorCode: code,
      errors: [`refused: ${reason}`],
      errorCount: 1,
      processedAt: '2026-03-01T09:00:10.000Z',
    });
  });

  it.each([
    ['a YAML document that is not OpenAPI', 'hello: world\n', /not OpenAPI/],
    ['text that is neither JSON nor YAML', '{ "openapi": "3.1.0", ', /not JSON or YAML/],
    ['an OpenAPI document the validator refuses', 'openapi: 3.0.3\ninfo: {title: x}\npaths: {}\n', /version/],
    [
      'a YAML alias bomb',
      ['a: &a [x,x,x,x,x,x,x,x,x]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
        'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      ].join('\n'), // prettier-ignore
      /alias/i,
    ],
  ])('records a PARSE_ERROR for %s', async (_what, text, message) => {
    const { processes } = await start(new HandFetcher());
    await processes.waitFor(await create('src-1', await textSource(text)));
    const failed = (await history())[2] as unknown as { type: string; errorCode: string; errors: string[] };
    expect(failed).toMatchObject({ type: 'OpenAPISpecProcessingFailed', errorCode: 'PARSE_ERROR' });
    expect(failed.errors.join('\n')).toMatch(message);
  });

  it('refuses a document whose references take too long to validate, without stalling the service', async () => {
    // every schema refers ten times to the one before: followed, the last one is 10^8 paths long
    const schemas: Record<string, unknown> = { a0: { type: 'string' } };
    for (let i = 1; i <= 8; i++) {
      schemas[`a${i}`] = { allOf: Array.from({ length: 10 }, () => ({ $ref: `#/components/schemas/a${i - 1}` })) };
    }
    const bomb = {
      openapi: '3.0.3',
      info: { title: 'refs', version: '1' },
      paths: {
        '/x': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/a8' } } },
              },
            },
          },
        },
      },
      components: { schemas },
    };
    const { processes } = await start(new HandFetcher(), {
      timeoutMs: 2000,
      maxMemoryMb: 256,
      maxExpandedChars: 1024 * 1024,
    });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const began = Date.now();
    try {
      await processes.waitFor(await create('src-1', await textSource(JSON.stringify(bomb))), 10_000);
    } finally {
      clearInterval(ticker);
    }
    const took = Date.now() - began;
    expect(took).toBeLessThan(6000);
    // the event loop kept turning meanwhile (a tick every 50 ms, with room for a loaded machine)
    expect(ticks).toBeGreaterThan(took / 50 / 4);
    const failed = (await history())[2] as unknown as { errorCode: string; errors: string[] };
    expect(failed).toMatchObject({ errorCode: 'PARSE_ERROR', errors: [expect.stringMatching(/longer than 2000 ms/)] });
    // the next document gets a fresh validator
    await processes.waitFor(await replace('src-2', await textSource(PETSTORE_YAML)), 10_000);
    expect((await types()).slice(-1)).toEqual(['OpenAPISpecVersionCreated']);
  });

  it('refuses a YAML document whose few aliases expand it beyond the limit', async () => {
    // 60 aliases, well under the alias limit, of one 20,000-character node: 1.2 million characters expanded
    const yaml = [
      PETSTORE_YAML.trimEnd(),
      `x-big: &big "${'x'.repeat(20_000)}"`,
      `x-copies: [${Array.from({ length: 60 }, () => '*big').join(', ')}]`,
    ].join('\n');
    const { processes } = await start(new HandFetcher());
    await processes.waitFor(await create('src-1', await textSource(yaml)), 10_000);
    const failed = (await history())[2] as unknown as { errorCode: string; errors: string[] };
    expect(failed).toMatchObject({
      errorCode: 'PARSE_ERROR',
      errors: [expect.stringMatching(/expands to \d+ characters/)],
    });
    // the same document with a few copies is fine
    const fine = yaml.replace(/x-copies: .*$/, 'x-copies: [*big, *big]');
    await processes.waitFor(await replace('src-2', await textSource(fine)), 10_000);
    expect((await types()).slice(-1)).toEqual(['OpenAPISpecVersionCreated']);
  });

  it('drops the result of a source superseded while it was fetched, then processes the newer one', async () => {
    const fetcher = new HandFetcher();
    const { processes } = await start(fetcher);
    await create('src-1', { kind: 'url', url: 'https://specs.example.com/v1.yaml' });
    await fetcher.started(1);
    const newer = await replace('src-2', await textSource(PETSTORE_YAML));
    fetcher.calls[0].resolve(answer('https://specs.example.com/v1.yaml', SWAGGER_JSON));
    await processes.waitFor(newer);
    expect(await types()).toEqual([
      'OpenAPISpecCreated',
      'OpenAPISpecProcessingStarted',
      'OpenAPISpecSourceChanged',
      'OpenAPISpecProcessingStarted',
      'OpenAPISpecVersionCreated',
    ]);
    expect((await history())[4]).toMatchObject({ sourceId: 'src-2', versionId: 'src-2', title: 'Petstore' });
  });

  it('a new source after a failure processes again, and a failure later leaves the last version as it was', async () => {
    const fetcher = new HandFetcher();
    const { processes } = await start(fetcher);
    await processes.waitFor(await create('src-1', await textSource('not: openapi')));
    await processes.waitFor(await replace('src-2', await textSource(PETSTORE_YAML)));
    expect((await types()).slice(-1)).toEqual(['OpenAPISpecVersionCreated']);
    await replace('src-3', { kind: 'url', url: 'https://specs.example.com/gone.yaml' });
    await fetcher.started(1);
    fetcher.calls[0].reject(new FetchRefused('status', 'the server answered 404'));
    await until('OpenAPISpecProcessingFailed');
    expect((await history()).filter((event) => event.type === 'OpenAPISpecVersionCreated')).toHaveLength(1);
  });

  it('resumes after a crash in the middle of a fetch: the source is processed once, by the next run', async () => {
    // the first run starts the work and hangs in the fetch; it is never stopped, as if the process was killed
    const stuck = new HandFetcher();
    await start(stuck);
    await create('src-1', { kind: 'url', url: 'https://specs.example.com/api.yaml' });
    await stuck.started(1);
    expect(await types()).toEqual(['OpenAPISpecCreated', 'OpenAPISpecProcessingStarted']);

    // the service starts again over the same stores: the trigger was never checkpointed, so it comes again
    clock.advance(60_000);
    const fetcher = new HandFetcher();
    await start(fetcher);
    await fetcher.started(1);
    fetcher.calls[0].resolve(answer('https://specs.example.com/api.yaml', PETSTORE_YAML));
    await until('OpenAPISpecVersionCreated');

    // the first run's fetch finally fails: its result is dropped, nothing is appended twice
    stuck.calls[0].reject(new FetchRefused('timeout', 'too slow'));
    await running[0].stop();
    running.shift();
    expect(await types()).toEqual(['OpenAPISpecCreated', 'OpenAPISpecProcessingStarted', 'OpenAPISpecVersionCreated']);
    expect((await history())[2]).toMatchObject({ processedAt: '2026-03-01T09:01:00.000Z' });
    expect(await types()).not.toContain('OpenAPISpecProcessingFailed');
  });

  it('does nothing for a spec deleted before its source was processed', async () => {
    const fetcher = new HandFetcher();
    const { processes } = await start(fetcher);
    await create('src-1', { kind: 'url', url: 'https://specs.example.com/api.yaml' });
    await fetcher.started(1);
    const deleted = await spec({ type: 'DeleteOpenAPISpec', data: { organizationId: ORG, slug: SLUG } });
    fetcher.calls[0].resolve(answer('https://specs.example.com/api.yaml', PETSTORE_YAML));
    await processes.waitFor(deleted);
    expect(await types()).toEqual(['OpenAPISpecCreated', 'OpenAPISpecProcessingStarted', 'OpenAPISpecDeleted']);
  });
});
