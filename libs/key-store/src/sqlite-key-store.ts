import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { CommitWatch, DataVersion, KEY_BYTES, type KeyStore, isSqliteFile, preparePrivateFile } from '@app/kernel';
import { checkSubject } from './subject';

export interface SqliteKeyStoreOptions {
  /** Database file (`:memory:` for a throwaway store). */
  file: string;
  busyTimeoutMs?: number;
}

/**
 * The embedded key store: one SQLite file of its own (`DATA_DIR/keys.sqlite`, mode 0600), one row per subject.
 *
 * It is written so that a destroyed key leaves no copy in any file: `secure_delete` makes SQLite overwrite deleted
 * rows with zeros, and since a page split can leave a stale copy of a row in a page's free space, each destruction
 * is followed by a `VACUUM`, which rebuilds the file from the live rows (in memory: `temp_store = MEMORY`, so no
 * temporary file holds keys). The rollback journal (not WAL) is deleted when each transaction commits, so no
 * `-wal` file keeps old pages around. Reads are not cached in memory, so a key destroyed by another process (the
 * CLI) is gone for this one at once; `version` (this connection's writes and `PRAGMA data_version`) tells those
 * who keep what they opened when that no longer holds. `data_version` is read only when the file's change counter
 * has moved since the last look ({@link CommitWatch}): a kept answer that shows people asks for the version on
 * every request. Writes are rare (a user's creation, an erasure) and durable
 * (`synchronous = FULL`): losing this file loses every person's data, so back it up with the event store.
 */
export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;
  private readonly selectOne: Database.Statement<[string], Buffer>;
  private readonly selectMany: Database.Statement<[string], { subject: string; key: Buffer }>;
  private readonly insert: Database.Statement<[string, Buffer, string]>;
  private readonly remove: Database.Statement<[string]>;
  /** `PRAGMA data_version`, read only when the file's change counter has moved ({@link CommitWatch}). */
  private readonly dataVersion: DataVersion;
  /** Keys this connection created or destroyed (`PRAGMA data_version` only counts other connections' commits). */
  private writes = 0;

  constructor(options: SqliteKeyStoreOptions) {
    if (isSqliteFile(options.file)) preparePrivateFile(options.file);
    this.db = new Database(options.file);
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.db.pragma('journal_mode = DELETE');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('temp_store = MEMORY');
    this.db.exec(`CREATE TABLE IF NOT EXISTS personal_keys (
      subject TEXT PRIMARY KEY, key BLOB NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID`);
    this.selectOne = this.db.prepare<[string], Buffer>('SELECT key FROM personal_keys WHERE subject = ?').pluck();
    this.selectMany = this.db.prepare<[string], { subject: string; key: Buffer }>(
      'SELECT subject, key FROM personal_keys WHERE subject IN (SELECT value FROM json_each(?))',
    );
    this.insert = this.db.prepare<[string, Buffer, string]>(
      'INSERT INTO personal_keys (subject, key, created_at) VALUES (?, ?, ?) ON CONFLICT (subject) DO NOTHING',
    );
    this.remove = this.db.prepare<[string]>('DELETE FROM personal_keys WHERE subject = ?');
    const dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    // the watch once the file exists (the table above made it)
    this.dataVersion = new DataVersion(
      () => dataVersion.get() as number,
      isSqliteFile(options.file) ? CommitWatch.changeCounterOf(options.file) : undefined,
    );
  }

  async keyFor(subject: string): Promise<Buffer> {
    checkSubject(subject);
    const existing = this.selectOne.get(subject);
    if (existing) return existing;
    // Whoever inserts first wins; everyone reads the winner's key.
    if (this.insert.run(subject, randomBytes(KEY_BYTES), new Date().toISOString()).changes > 0) this.writes++;
    const key = this.selectOne.get(subject);
    if (!key) throw new Error(`the key of ${subject} could not be stored`);
    return key;
  }

  async get(subject: string): Promise<Buffer | undefined> {
    checkSubject(subject);
    return this.selectOne.get(subject);
  }

  async getMany(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    subjects.forEach(checkSubject);
    const found = new Map<string, Buffer>();
    if (subjects.length === 0) return found;
    for (const row of this.selectMany.all(JSON.stringify([...new Set(subjects)]))) found.set(row.subject, row.key);
    return found;
  }

  /**
   * Deletes the row, then rebuilds the file without it (an erasure is rare; the file is small). The rebuild runs
   * even when there was no row, so that repeating a destruction whose rebuild failed (another process held the
   * file too long) completes it.
   */
  async destroy(subject: string): Promise<void> {
    checkSubject(subject);
    this.writes++;
    this.remove.run(subject);
    this.db.exec('VACUUM');
  }

  version(): string {
    return `${this.writes}:${this.dataVersion.get()}`;
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    // only now: closing its descriptor would drop the locks of this process's connections to the file
    this.dataVersion.release();
  }
}
