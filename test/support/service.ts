import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  EVENT_STORE,
  type EventStore,
  KEY_STORE,
  type KeyStore,
  ManualClock,
  READ_STORE,
  type ReadStore,
  Runtime,
} from '@app/kernel';
import { bootstrap } from '@app/identity';
import { createApp } from '../../apps/api/src/app';
import { type AppConfig, loadConfig } from '../../apps/api/src/config';
import { checkResponse } from './conformance';

export const PUBLIC_URL = 'http://quire.test';

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** A raw request body (sent as is, with the JSON content type unless a header says otherwise). */
  raw?: string;
  headers?: Record<string, string>;
}

/** The environment of a service whose rate limiter lets three requests through per minute (for `start`). */
export const RATE_LIMITED_TO_THREE: Readonly<Record<string, string>> = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_MAX: '3',
  RATE_LIMIT_WINDOW_MS: '60000',
};

/** A running service on the embedded backends, in a fresh data directory, listening on a random loopback port. */
export class TestService {
  /** Operations whose 2xx responses were validated against the official spec. */
  readonly validated = new Set<string>();

  private constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
    readonly url: string,
    readonly clock: ManualClock,
    private readonly ownsDir: boolean,
  ) {}

  static async start(env: Record<string, string> = {}, dataDir?: string): Promise<TestService> {
    const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'quire-e2e-'));
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      PUBLIC_URL,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_ENABLED: 'false',
      CURSOR_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      ...env,
    });
    const clock = new ManualClock(new Date());
    const app = await createApp(config, { clock });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new TestService(app, config, `http://127.0.0.1:${port}`, clock, dataDir === undefined);
  }

  get events(): EventStore {
    return this.app.get(EVENT_STORE);
  }

  get reads(): ReadStore {
    return this.app.get(READ_STORE);
  }

  get keys(): KeyStore {
    return this.app.get(KEY_STORE);
  }

  get runtime(): Runtime {
    return this.app.get(Runtime);
  }

  async stop(removeData = this.ownsDir): Promise<void> {
    await this.app.close();
    if (removeData) rmSync(this.config.dataDir, { recursive: true, force: true });
  }

  /** Creates a user (and optionally an organization they administer) the way the CLI does, and waits for it. */
  async signUp(email: string, options: { name?: string; org?: string } = {}) {
    const result = await bootstrap(this.events, this.keys, this.clock, {
      email,
      name: options.name,
      organizationTitle: options.org,
    });
    await this.runtime.catchUp();
    return { userId: result.userId, token: result.token, organizationId: result.organizationId! };
  }

  /** Number of events in the store (to prove a refused request appended nothing). */
  async eventCount(): Promise<number> {
    return (await this.events.readAll()).length;
  }

  /** Expects `run` to be refused with `status` (and `message`) in the seed's error shape, appending no event. */
  async refused(run: () => Promise<Response>, status: number, message?: RegExp): Promise<void> {
    const before = await this.eventCount();
    expectError(await run(), status, message);
    expect(await this.eventCount()).toBe(before);
  }

  /** Requests as one caller; `post` and `put` send `{}` when no body is given. */
  as(token: string) {
    return {
      get: (path: string) => this.call('GET', path, { token }),
      post: (path: string, body?: unknown) => this.call('POST', path, { token, body: body ?? {} }),
      put: (path: string, body?: unknown) => this.call('PUT', path, { token, body: body ?? {} }),
      patch: (path: string, body?: unknown) => this.call('PATCH', path, { token, body }),
      delete: (path: string) => this.call('DELETE', path, { token }),
    };
  }

  /** Sends a request; a 2xx JSON answer of an official operation must match the official schema. */
  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    if (response.status >= 200 && response.status < 300 && path.startsWith('/v1/')) {
      const apiPath = path.slice(3).split('?')[0];
      const check = checkResponse(method, apiPath, response.status, parsed);
      if (check) {
        if (check.errors.length > 0) {
          throw new Error(
            `${method} ${path} → ${response.status} does not match ${check.operationId} (${check.specId}):\n` +
              `${check.errors.join('\n')}\n${text.slice(0, 2000)}`,
          );
        }
        this.validated.add(check.operationId);
      }
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
}

/** Asserts the seed's error shape with the given status. */
export function expectError(response: Response, status: number, message?: RegExp): void {
  expect({ status: response.status, body: response.body }).toMatchObject({
    status,
    body: { error: { code: status, message: expect.any(String) } },
  });
  if (message) expect(response.body.error.message).toMatch(message);
}
