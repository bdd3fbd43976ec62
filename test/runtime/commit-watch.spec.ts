import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CommitWatch, DataVersion } from '@app/kernel';

/** Runs one SQL statement on `file` from a separate Node process (its own connection, its own locks). */
function runInAnotherProcess(file: string, sql: string): void {
  execFileSync(process.execPath, [
    '-e',
    `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))});` +
      `const db = new D(${JSON.stringify(file)}); db.prepare(${JSON.stringify(sql)}).run(); db.close();`,
  ]);
}

describe('CommitWatch', () => {
  let dir: string;
  let file: string;
  let mine: Database.Database;
  let other: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-commit-watch-'));
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
    const watch = CommitWatch.walIndexOf(file)!;
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
    const watch = CommitWatch.walIndexOf(file)!;
    try {
      watch.mayHaveChanged();
      expect(watch.mayHaveChanged()).toBe(false);
      runInAnotherProcess(file, "INSERT INTO t (v) VALUES ('process')");
      expect(watch.mayHaveChanged()).toBe(true);
      expect(mine.prepare('SELECT v FROM t').pluck().all()).toEqual(['process']);
    } finally {
      watch.release();
    }
  });

  it('shares one descriptor per file until the last watch is released', () => {
    const first = CommitWatch.walIndexOf(file)!;
    const second = CommitWatch.walIndexOf(file)!;
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
    const third = CommitWatch.walIndexOf(file)!;
    expect(third.mayHaveChanged()).toBe(true);
    expect(third.mayHaveChanged()).toBe(false);
    third.release();
  });

  it('gives no watch where there is no shared-memory file', () => {
    expect(CommitWatch.walIndexOf(':memory:')).toBeUndefined();
    expect(CommitWatch.walIndexOf(join(dir, 'missing.sqlite'))).toBeUndefined();
    expect(CommitWatch.changeCounterOf(join(dir, 'missing.sqlite'))).toBeUndefined();
  });

  it('asks SQLite for data_version only when the watch says a commit may have happened', () => {
    let reads = 0;
    const version = new DataVersion(() => {
      reads += 1;
      return dataVersion(mine);
    }, CommitWatch.walIndexOf(file));
    try {
      const first = version.get();
      expect(version.get()).toBe(first);
      expect(reads).toBe(1);
      other.prepare('INSERT INTO t (v) VALUES (?)').run('other');
      expect(version.get()).not.toBe(first);
      expect(reads).toBe(2);
      // without a watch, every look asks
      const unwatched = new DataVersion(() => ++reads, undefined);
      unwatched.get();
      unwatched.get();
      expect(reads).toBe(4);
    } finally {
      version.release();
    }
  });

  describe('in rollback-journal mode (the file change counter)', () => {
    let journalFile: string;
    let writer: Database.Database;
    let reader: Database.Database;

    beforeEach(() => {
      journalFile = join(dir, 'journal.sqlite');
      writer = new Database(journalFile);
      writer.pragma('journal_mode = DELETE');
      writer.exec('CREATE TABLE k (id TEXT PRIMARY KEY, v BLOB)');
      reader = new Database(journalFile);
    });

    afterEach(() => {
      reader.close();
      writer.close();
    });

    it("tells every commit, by this process's connections and another process's, and a VACUUM, and nothing else", () => {
      const watch = CommitWatch.changeCounterOf(journalFile)!;
      try {
        expect(watch.mayHaveChanged()).toBe(true); // the first look
        expect(watch.mayHaveChanged()).toBe(false);
        reader.prepare('SELECT COUNT(*) FROM k').get();
        expect(watch.mayHaveChanged()).toBe(false);
        for (let i = 0; i < 3; i++) {
          const before = dataVersion(reader);
          writer.prepare('INSERT INTO k (id, v) VALUES (?, ?)').run(`w${i}`, Buffer.alloc(32));
          expect(watch.mayHaveChanged()).toBe(true);
          expect(dataVersion(reader)).not.toBe(before);
          expect(watch.mayHaveChanged()).toBe(false);
        }
        writer.prepare('DELETE FROM k WHERE id = ?').run('w0');
        expect(watch.mayHaveChanged()).toBe(true);
        writer.exec('VACUUM');
        expect(watch.mayHaveChanged()).toBe(true);
        expect(watch.mayHaveChanged()).toBe(false);
        runInAnotherProcess(journalFile, "INSERT INTO k (id) VALUES ('process')");
        expect(watch.mayHaveChanged()).toBe(true);
        expect(reader.prepare('SELECT id FROM k WHERE id = ?').pluck().get('process')).toBe('process');
      } finally {
        watch.release();
      }
    });

    it("keeps the connections' locks while a watch is released (the descriptor is closed only by the last user)", () => {
      const first = CommitWatch.changeCounterOf(journalFile)!;
      const second = CommitWatch.changeCounterOf(journalFile)!;
      first.mayHaveChanged();
      second.mayHaveChanged();
      first.release();
      writer.prepare('INSERT INTO k (id) VALUES (?)').run('after release');
      expect(second.mayHaveChanged()).toBe(true);
      second.release();
    });
  });
});
