import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { SqliteEventStore } from '@app/event-store';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** The built server as `npm start` runs it: starts, answers, stops cleanly on SIGTERM, refuses bad configuration. */
// The built server loads every module at start: on a loaded 2-core machine that alone can take 20 s or more.
jest.setTimeout(120_000);

describe('server process (e2e)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-server-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function start(env: Record<string, string>): {
    child: ChildProcess;
    output: () => string;
    exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  } {
    const child = spawn('node', ['dist/apps/api/src/main.js'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', ...env },
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, output: () => output, exited };
  }

  it('starts on the embedded backends, reports health and exits cleanly on SIGTERM', async () => {
    const server = start({});
    let port: string | undefined;
    for (let i = 0; i < 900 && !port; i++) {
      port = /listening on http:\/\/[^:]+:(\d+)/.exec(server.output())?.[1];
      if (!port) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(port).toBeDefined();
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', checks: { eventStore: 'up', readStore: 'up' } });
    server.child.kill('SIGTERM');
    // Nest closes the application (runners, then stores) and re-raises the signal once done
    const exit = await server.exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(server.output()).not.toMatch(/error/i);
  });

  async function portOf(server: ReturnType<typeof start>): Promise<string> {
    for (let i = 0; i < 900; i++) {
      const port = /listening on http:\/\/[^:]+:(\d+)/.exec(server.output())?.[1];
      if (port) return port;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the server did not start:\n${server.output()}`);
  }

  const cli = (args: string[]) =>
    run('node', ['dist/apps/cli/src/main.js', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dir } });

  it('loses no acknowledged write when killed (SIGKILL) mid-burst, and finishes a rebuild asked for before the kill', async () => {
    const env = { RATE_LIMIT_ENABLED: 'false' };
    const first = start(env);
    const port = await portOf(first);
    const { token, organizationId } = JSON.parse(
      (await cli(['bootstrap', '--email', 'crash@example.com', '--org', 'Crash Test', '--json'])).stdout,
    ) as { token: string; organizationId: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const create = (base: string, i: number) =>
      fetch(`${base}/v1/orgs/${organizationId}/spaces`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: `Space ${i}` }),
      });
    // the organization the CLI created in another process is visible once the service has polled it
    for (let i = 0; ; i++) {
      const response = await create(`http://127.0.0.1:${port}`, -1);
      if (response.status === 201) break;
      if (i > 100) throw new Error(`the service never saw the organization: ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (from: number) => {
      for (let i = from; !killed; i += 10) {
        try {
          const response = await create(`http://127.0.0.1:${port}`, i);
          if (response.status === 201) acknowledged.push(((await response.json()) as { id: string }).id);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const writers = Array.from({ length: 10 }, (_, i) => writer(i));
    while (acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 5));

    // an operator asks for a rebuild and waits for it; the service is killed right after the request is stored
    const waiting = cli(['projections', 'rebuild', 'spaces', '--wait', '--timeout', '60', '--json']);
    const events = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
    try {
      for (let i = 0; ; i++) {
        const stored = await events.readAll({ after: (await events.headPosition()) - 200n });
        if (stored.some((event) => event.type === 'ProjectionRebuildRequested')) break;
        if (i > 400) throw new Error('the rebuild request was never stored');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      await events.close();
    }
    first.child.kill('SIGKILL');
    killed = true;
    expect((await first.exited).signal).toBe('SIGKILL');
    await Promise.all(writers);
    const answered = [...acknowledged];

    const second = start(env);
    try {
      const again = `http://127.0.0.1:${await portOf(second)}`;
      const { stdout } = await waiting;
      expect(JSON.parse(stdout)).toMatchObject({ requested: ['spaces'], rebuilt: true });
      for (const id of answered) {
        const response = await fetch(`${again}/v1/spaces/${id}`, { headers });
        expect({ id, status: response.status }).toEqual({ id, status: 200 });
      }
      const status = JSON.parse((await cli(['projections', 'status', '--json'])).stdout) as {
        projections: { name: string; rebuild: { state: string } | null }[];
      };
      expect(status.projections.find((p) => p.name === 'projection:spaces')?.rebuild).toMatchObject({ state: 'done' });
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 150_000);

  it('gives up waiting for a rebuild when no service runs, with a clear message and a non-zero exit', async () => {
    const server = start({});
    const port = await portOf(server);
    const { token } = JSON.parse(
      (await cli(['bootstrap', '--email', 'nobody@example.com', '--org', 'Stopped', '--json'])).stdout,
    ) as { token: string };
    // the service has run its projections over the CLI's events (so they have checkpoints) before it stops
    for (let i = 0; ; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/v1/orgs`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (response.status === 200 && ((await response.json()) as { count: number }).count === 1) break;
      if (i > 100) throw new Error('the service never saw the organization');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    server.child.kill('SIGTERM');
    await server.exited;
    await expect(cli(['projections', 'rebuild', 'spaces', '--wait', '--timeout', '1'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no running service finished it within 1 s'),
    });
    const status = JSON.parse((await cli(['projections', 'status', '--json'])).stdout) as {
      projections: { name: string; rebuild: unknown }[];
    };
    // the request waits in the store for the next service: status shows it pending
    expect(status.projections.find((p) => p.name === 'projection:spaces')?.rebuild).toEqual({
      state: 'pending',
      position: expect.stringMatching(/^[0-9]+$/),
      head: null,
    });
    expect(status.projections.find((p) => p.name === 'projection:organizations')?.rebuild).toBeNull();
  });

  it('never writes integration secrets to its log, even at the trace level', async () => {
    const secret = 'sk_live_not-for-the-log-9b2e71';
    const server = start({ LOG_LEVEL: 'trace', RATE_LIMIT_ENABLED: 'false' });
    const port = await portOf(server);
    const { token, organizationId } = JSON.parse(
      (await cli(['bootstrap', '--email', 'log@example.com', '--org', 'Logged', '--json'])).stdout,
    ) as { token: string; organizationId: string };
    const publish = (body: Record<string, unknown>) =>
      fetch(`http://127.0.0.1:${port}/v1/integrations/logged`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Logged',
          description: 'd',
          scopes: [],
          script: 'export default {}',
          organization: organizationId,
          ...body,
        }),
      });
    expect((await publish({ secrets: { TOKEN: secret } })).status).toBe(200);
    expect((await publish({ secrets: { TOKEN: secret, 'bad name': secret } })).status).toBe(400);
    expect((await publish({ secrets: { TOKEN: secret }, colour: secret })).status).toBe(400);
    server.child.kill('SIGTERM');
    await server.exited;
    expect(server.output()).toMatch(/integrations\/logged/);
    expect(server.output()).not.toContain(secret);
  });

  it('refuses to start with an invalid configuration, naming the variable', async () => {
    const server = start({ PORT: 'eighty', EVENT_STORE: 'eventstoredb' });
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toMatch(/PORT/);
    expect(server.output()).toMatch(/EVENTSTORE_CONNECTION_STRING/);
  });
});
