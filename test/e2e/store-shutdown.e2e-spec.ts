import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/built-server';

jest.setTimeout(60_000);

/**
 * The built SQLite stores (`npm run build` first) in a process of their own with nothing else to do: their
 * checkpointing workers do not keep a process alive, but closing a store must still wait for its worker, or the
 * process ends in the middle of its shutdown (what is left of it, other stores closing, never runs).
 */
const SCRIPT = `
const { SqliteEventStore } = require('./dist/libs/event-store/src/sqlite-event-store');
const { SqliteReadStore } = require('./dist/libs/read-store/src/sqlite-read-store');
const dir = process.argv[1];
(async () => {
  const events = new SqliteEventStore({ file: dir + '/events.sqlite', backgroundCheckpoints: true });
  const reads = new SqliteReadStore({ file: dir + '/read.sqlite', backgroundCheckpoints: true });
  await reads.ensureCollection('things', []);
  for (let i = 0; i < 20; i++) {
    const { position } = await events.append('s-' + i, [{ id: require('node:crypto').randomUUID(), type: 'T', data: { i } }], 'any');
    await reads.write([{ kind: 'put', collection: 'things', doc: { id: 't' + i }, position }], []);
  }
  // long enough for both workers to start and checkpoint
  await new Promise((resolve) => setTimeout(resolve, 600));
  await events.close();
  process.stdout.write('event store closed\\n');
  await reads.close();
  process.stdout.write('read store closed\\n');
})();
`;

describe('SQLite stores with background checkpoints, built', () => {
  it('close completely in a process that has nothing else to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-shutdown-'));
    try {
      const { stdout } = await promisify(execFile)('node', ['-e', SCRIPT, dir], { cwd: ROOT });
      expect(stdout).toBe('event store closed\nread store closed\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
