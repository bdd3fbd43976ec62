import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The built server as `npm start` runs it: starts, answers, stops cleanly on SIGTERM, refuses bad configuration. */
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
    for (let i = 0; i < 200 && !port; i++) {
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

  it('refuses to start with an invalid configuration, naming the variable', async () => {
    const server = start({ PORT: 'eighty', EVENT_STORE: 'eventstoredb' });
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toMatch(/PORT/);
    expect(server.output()).toMatch(/EVENTSTORE_CONNECTION_STRING/);
  });
});
