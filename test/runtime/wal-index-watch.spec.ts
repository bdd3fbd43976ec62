import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { WalIndexWatch } from '@app/kernel';

describe('WalIndexWatch', () => {
  let dir: string;
  let file: string;
  let mine: Database.Database;
  let other: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-wal-index-'));
    file = join(dir, 'db.sqlite');
    mine = new Database(file);
    mine.pragma('journal_mode = WAL');
    mine.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    other = new Database(file);
  });

  afterEach(() => {
    other.close();
    mine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const dataVersion = (db: Database.Database) => db.pragma('data_version', { simple: true }) as number;

  it('says nothing changed until a connection commits, and then once', () => {
    const watch = WalIndexWatch.of(file)!;
    try {
      expect(watch.mayHaveChanged()).toBe(true); // the first look
      expect(watch.mayHaveChanged()).toBe(false);
      mine.prepare('SELECT COUNT(*) FROM t').get(); // reading commits nothing
      expect(watch.mayHaveChanged()).toBe(false);
      const before = dataVersion(mine);
      other.prepare('INSERT INTO t (v) VALUES (?)').run('other');
      expect(watch.mayHaveChanged()).toBe(true);
      expect(dataVersion(mine)).not.toBe(before);
      expect(watch.mayHaveChanged()).toBe(false);
      mine.prepare('INSERT INTO t (v) VALUES (?)').run('mine');
      expect(watch.mayHaveChanged()).toBe(true);
      // a checkpoint copies pages into the database: no commit, nothing to tell
      other.pragma('wal_checkpoint(PASSIVE)');
      expect(watch.mayHaveChanged()).toBe(false);
      // every commit tells, also once the log has been checkpointed in full and starts again from its beginning
      mine.pragma('wal_checkpoint(RESTART)');
      for (let i = 0; i < 5; i++) {
        other.prepare('INSERT INTO t (v) VALUES (?)').run(`again ${i}`);
        expect(watch.mayHaveChanged()).toBe(true);
        expect(watch.mayHaveChanged()).toBe(false);
      }
    } finally {
      watch.release();
    }
  });

  it("sees another process's commit", () => {
    const watch = WalIndexWatch.of(file)!;
    try {
      watch.mayHaveChanged();
      expect(watch.mayHaveChanged()).toBe(false);
      execFileSync(process.execPath, [
        '-e',
        `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))});` +
          `const db = new D(${JSON.stringify(file)}); db.prepare("INSERT INTO t (v) VALUES ('process')").run(); db.close();`,
      ]);
      expect(watch.mayHaveChanged()).toBe(true);
      expect(mine.prepare('SELECT v FROM t').pluck().all()).toEqual(['process']);
    } finally {
      watch.release();
    }
  });

  it('shares one descriptor per file until the last watch is released', () => {
    const first = WalIndexWatch.of(file)!;
    const second = WalIndexWatch.of(file)!;
    first.mayHaveChanged();
    second.mayHaveChanged();
    first.release();
    first.release(); // once is enough
    other.prepare('INSERT INTO t (v) VALUES (?)').run('x');
    expect(second.mayHaveChanged()).toBe(true);
    expect(second.mayHaveChanged()).toBe(false);
    // a released watch cannot tell, so it always says "may have"
    expect(first.mayHaveChanged()).toBe(true);
    second.release();
    const third = WalIndexWatch.of(file)!;
    expect(third.mayHaveChanged()).toBe(true);
    expect(third.mayHaveChanged()).toBe(false);
    third.release();
  });

  it('gives no watch where there is no shared-memory file', () => {
    expect(WalIndexWatch.of(':memory:')).toBeUndefined();
    expect(WalIndexWatch.of(join(dir, 'missing.sqlite'))).toBeUndefined();
  });
});
