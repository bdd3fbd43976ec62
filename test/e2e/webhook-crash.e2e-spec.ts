import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, baseUrlOf, startBuiltServer } from '../support/built-server';

const run = promisify(execFile);

// The built server loads every module at start: on a loaded 2-core machine that alone can take 20 s or more.
jest.setTimeout(150_000);

/**
 * The built server killed (SIGKILL) while a webhook delivery is out: the receiver acknowledges the first three
 * events, then holds the fourth request open and the server is killed meanwhile. The next server on the same
 * data directory sends the fourth event again (it was never acknowledged), then the rest, in order, and never
 * the three acknowledged ones. Run `npm run build` first.
 */
describe('webhook deliveries across a crash (e2e, built server)', () => {
  let dir: string;
  let receiver: Server;
  let port: number;
  const received: { id: string; position: string; answered: boolean }[] = [];
  const held: ServerResponse[] = [];
  let fourthArrived: () => void = () => undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-webhook-crash-'));
    receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; position: string };
        const hold = received.length === 3;
        received.push({ id: event.id, position: event.position, answered: !hold });
        if (hold) {
          held.push(response); // never answered: the server is killed meanwhile
          fourthArrived();
          return;
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const response of held) response.destroy();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const start = () => startBuiltServer(dir, { FETCH_ALLOWLIST: `127.0.0.1:${port}`, FETCH_TIMEOUT_MS: '60000' });

  it('sends the unacknowledged event again after SIGKILL, then the rest in order, and nothing twice', async () => {
    const first = start();
    const base = await baseUrlOf(first);
    const { stdout } = await run('node', ['dist/apps/cli/src/main.js', 'bootstrap', '--email', 'hook@example.com', '--org', 'Hooks', '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir },
    }); // prettier-ignore
    const { token, organizationId } = JSON.parse(stdout) as { token: string; organizationId: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    // the organization the CLI created in another process is visible once the service has polled it
    for (let i = 0; ; i++) {
      const response = await post(base, `/v1/orgs/${organizationId}/webhooks`, {
        url: `http://127.0.0.1:${port}/hook`,
        types: ['space.created'],
      });
      if (response.status === 201) break;
      if (i > 100) throw new Error(`the service never saw the organization: ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const arrived = new Promise<void>((resolve) => (fourthArrived = resolve));
    for (let i = 0; i < 6; i++) {
      expect((await post(base, `/v1/orgs/${organizationId}/spaces`, { title: `Before ${i}` })).status).toBe(201);
    }
    await arrived;
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = start();
    try {
      const again = await baseUrlOf(second);
      for (let i = 0; i < 2; i++) {
        expect((await post(again, `/v1/orgs/${organizationId}/spaces`, { title: `After ${i}` })).status).toBe(201);
      }
      for (let i = 0; i < 400 && received.filter((r) => r.answered).length < 8; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const acknowledged = received.filter((r) => r.answered);
    expect(acknowledged).toHaveLength(8);
    // the held (fourth) event came again, first after the restart; acknowledged ones never came twice
    expect(received[4].id).toBe(received[3].id);
    expect(new Set(acknowledged.map((r) => r.id)).size).toBe(8);
    const positions = acknowledged.map((r) => BigInt(r.position));
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1])).toBe(true);
  }, 150_000);
});
