import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SqliteEventStore } from '@app/event-store';
import { ROOT, baseUrlOf, startBuiltServer } from '../support/built-server';

const run = promisify(execFile);

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

/**
 * The built server killed (SIGKILL) while it fetches an OpenAPI source: the next server on the same data directory
 * picks the work up, fetches again and records one version. The spec's host holds the first request open, so the
 * kill lands in the middle of the fetch, and answers every later one.
 */
// The built server loads every module at start: on a loaded 2-core machine that alone can take 20 s or more.
jest.setTimeout(120_000);

describe('OpenAPI processing across a crash (e2e, built server)', () => {
  let dir: string;
  let host: Server;
  let port: number;
  const requests: string[] = [];
  const held: ServerResponse[] = [];
  let firstArrived: () => void = () => undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-openapi-crash-'));
    host = createServer((request: IncomingMessage, response: ServerResponse) => {
      requests.push(request.url ?? '');
      if (requests.length === 1) {
        held.push(response); // never answered: the server is killed meanwhile
        firstArrived();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/yaml' });
      response.end(PETSTORE_YAML);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    port = (host.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const response of held) response.destroy();
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const start = () => startBuiltServer(dir, { FETCH_ALLOWLIST: `127.0.0.1:${port}`, FETCH_TIMEOUT_MS: '60000' });

  it('resumes the processing of a source after SIGKILL in the middle of its fetch', async () => {
    const first = start();
    const base = await baseUrlOf(first);
    const { stdout } = await run('node', ['dist/apps/cli/src/main.js', 'bootstrap', '--email', 'oas@example.com', '--org', 'Specs', '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir },
    }); // prettier-ignore
    const { token, organizationId } = JSON.parse(stdout) as { token: string; organizationId: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const spec = `/v1/orgs/${organizationId}/openapi/petstore`;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));

    // the organization the CLI created in another process is visible once the service has polled it
    for (let i = 0; ; i++) {
      const response = await fetch(`${base}/v1/orgs/${organizationId}/openapi`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ slug: 'petstore', source: { url: `http://127.0.0.1:${port}/petstore.yaml` } }),
      });
      if (response.status === 201) break;
      if (i > 100) throw new Error(`the service never saw the organization: ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await arrived;
    const during = (await (await fetch(`${base}${spec}`, { headers })).json()) as { processingState: string };
    expect(during.processingState).toBe('progress');

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = start();
    try {
      const again = await baseUrlOf(second);
      let after: { processingState: string; lastVersion?: string; lastProcessErrorCode?: string } | undefined;
      for (let i = 0; i < 300; i++) {
        after = (await (await fetch(`${again}${spec}`, { headers })).json()) as typeof after;
        if (after?.processingState === 'complete') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(after).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
      expect(after).not.toHaveProperty('lastProcessErrorCode');
      expect(requests).toEqual(['/petstore.yaml', '/petstore.yaml']);
      const content = await fetch(`${again}${spec}/versions/latest/content/raw`, { headers });
      expect(await content.json()).toEqual({ text: PETSTORE_YAML, format: 'yaml' });
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const events = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
    try {
      const types = (await events.readAll()).map((event) => event.type).filter((type) => type.startsWith('OpenAPI'));
      expect(types).toEqual([
        'OpenAPISpecCreated',
        'OpenAPISpecProcessingDue',
        'OpenAPISpecProcessingStarted',
        'OpenAPISpecVersionCreated',
      ]);
    } finally {
      await events.close();
    }
  }, 120_000);
});
