import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** The repository root: the built server and CLI are run from there (`npm run build` first). */
export const ROOT = join(__dirname, '..', '..');

export interface BuiltServer {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr together. */
  output: () => string;
  /** The signal the process ended with (null when it exited on its own). */
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts the built server (dist/) on a data directory, quiet, on a free port, without rate limiting. */
export function startBuiltServer(dataDir: string, env: Record<string, string> = {}): BuiltServer {
  const child = spawn('node', ['dist/apps/api/src/main.js'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', ...env },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return { child, output: () => output, exited };
}

/** The server's base URL once it listens; waits up to 45 s (loading every module is slow on a loaded host). */
export async function baseUrlOf(server: BuiltServer): Promise<string> {
  for (let i = 0; i < 900; i++) {
    const found = /listening on http:\/\/[^:]+:(\d+)/.exec(server.output())?.[1];
    if (found) return `http://127.0.0.1:${found}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not start:\n${server.output()}`);
}
