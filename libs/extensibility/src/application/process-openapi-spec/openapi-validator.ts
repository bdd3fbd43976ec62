import { Worker } from 'node:worker_threads';
import { type OnApplicationShutdown } from '@nestjs/common';
import { type CheckedDocument, MAX_ALIASES } from './openapi-document';

export interface OpenApiValidatorOptions {
  /** Longest a document may take to read and validate before it is refused (PARSE_ERROR). */
  timeoutMs: number;
  /** Heap of the worker thread; a document needing more is refused. */
  maxMemoryMb: number;
  /** Largest document once its YAML aliases are expanded, in characters of JSON. */
  maxExpandedChars: number;
}

export const OPENAPI_VALIDATOR_DEFAULTS: OpenApiValidatorOptions = {
  timeoutMs: 20_000,
  maxMemoryMb: 512,
  maxExpandedChars: 64 * 1024 * 1024,
};

/**
 * The worker's code, kept as plain JavaScript so that it runs the same from the TypeScript sources (tests) and from
 * the build: it reads the text as JSON or YAML (at most `maxAliases` YAML aliases), checks the declared version and
 * validates with @readme/openapi-parser (`resolve.external: false`: a `$ref` to another file or to an address is
 * never followed). Its reading repeats `readDocument` in ./openapi-document.ts.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { validate } = require(workerData.parser);
const YAML = require(workerData.yaml);

function read(text) {
  if (text.trimStart().startsWith('{')) {
    try { return { format: 'json', value: JSON.parse(text) }; } catch (error) { /* YAML below */ }
  }
  return { format: 'yaml', value: YAML.parse(text, { maxAliasCount: workerData.maxAliases, uniqueKeys: true, prettyErrors: false }) };
}

async function check(text) {
  let doc;
  try { doc = read(text); } catch (error) { return { ok: false, errors: ['not JSON or YAML: ' + error.message] }; }
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: ['the document is not an object'] };
  }
  const declared = typeof value.openapi === 'string' ? value.openapi : value.swagger;
  if (typeof declared !== 'string' || !/^(2\\.0|3\\.[01]\\.\\d+)$/.test(declared)) {
    return { ok: false, errors: [workerData.notOpenApi] };
  }
  // aliases share one node: a document may read small and expand large, and /content serves it expanded
  const expanded = JSON.stringify(value).length;
  if (expanded > workerData.maxExpanded) {
    return { ok: false, errors: ['the document expands to ' + expanded + ' characters of JSON, more than ' + workerData.maxExpanded] };
  }
  const title = value.info && typeof value.info.title === 'string' ? value.info.title : undefined;
  const result = await validate(value, { resolve: { external: false }, dereference: { circular: 'ignore' } });
  if (!result.valid) {
    const errors = result.errors.map((one) => one.message);
    if (result.additionalErrors > 0) errors.push('and ' + result.additionalErrors + ' more errors');
    return { ok: false, errors };
  }
  return { ok: true, format: doc.format, specification: declared === '2.0' ? 'swagger' : 'openapi', specVersion: declared, title };
}

parentPort.on('message', ({ id, text }) => {
  check(text)
    .catch((error) => ({ ok: false, errors: [String((error && error.message) || error)] }))
    .then((result) => parentPort.postMessage({ id, result }));
});
`;

type Checked = CheckedDocument;

interface Pending {
  resolve: (result: Checked) => void;
  timer: NodeJS.Timeout;
  /** The worker checking it: a worker that ends fails only its own documents. */
  worker: Worker;
}

/**
 * Reads and validates OpenAPI documents in a worker thread, one at a time. Validation walks the document with its
 * internal `$ref`s followed, so a few kilobytes of references to references can take minutes; on the main thread
 * that would stall every request. In the worker it is bounded: past `timeoutMs`, or past its heap, the worker is
 * ended (and started again for the next document) and the document is refused.
 */
export class OpenApiValidator implements OnApplicationShutdown {
  private worker?: Worker;
  private next = 0;
  private readonly pending = new Map<number, Pending>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: OpenApiValidatorOptions = OPENAPI_VALIDATOR_DEFAULTS) {}

  /** Checks one text; documents are checked one after the other. */
  check(text: string): Promise<Checked> {
    const run = this.queue.then(() => this.send(text));
    this.queue = run.catch(() => undefined);
    return run;
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private send(text: string): Promise<Checked> {
    const worker = this.start();
    const id = this.next++;
    return new Promise<Checked>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        void this.stop(worker);
        resolve({ ok: false, errors: [`the document took longer than ${this.options.timeoutMs} ms to validate`] });
      }, this.options.timeoutMs);
      this.pending.set(id, { resolve, timer, worker });
      worker.postMessage({ id, text });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        parser: require.resolve('@readme/openapi-parser'),
        yaml: require.resolve('yaml'),
        maxAliases: MAX_ALIASES,
        maxExpanded: this.options.maxExpandedChars,
        notOpenApi:
          'the document is not OpenAPI 3.0, 3.1 or Swagger 2.0 (no `openapi: 3.x.y` or `swagger: "2.0"` field)',
      },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxMemoryMb },
    });
    // a worker waiting for work does not keep the service from exiting
    worker.unref();
    worker.on('message', ({ id, result }: { id: number; result: Checked }) => {
      const waiting = this.pending.get(id);
      if (!waiting) return;
      this.pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.resolve(result);
    });
    const fail = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.pending) {
        if (waiting.worker !== worker) continue;
        clearTimeout(waiting.timer);
        this.pending.delete(id);
        waiting.resolve({ ok: false, errors: [why] });
      }
    };
    worker.on('error', (error: Error) => fail(`the document could not be validated: ${error.message}`));
    worker.on('exit', () => fail('the document could not be validated: the validator stopped'));
    this.worker = worker;
    return worker;
  }

  private async stop(worker: Worker): Promise<void> {
    if (this.worker === worker) this.worker = undefined;
    await worker.terminate();
  }
}
