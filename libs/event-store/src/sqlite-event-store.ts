import Database from 'better-sqlite3';
import {
  START,
  WrongExpectedRevision,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  isSqliteFile,
  CommitWatch,
  DataVersion,
  type WalCheckpointer,
  startWalCheckpointer,
  preparePrivateFile,
  deepFreeze,
} from '@app/kernel';
import { type EventRow, recordedEventOf } from './event-row';
import { ReadAhead } from './read-ahead';

/*
 * This file imports nothing from the framework and, from the kernel, only the event-store port and a few SQLite
 * helpers (those test/contract/helpers/kernel-for-adapters.ts lists): the contract suite loads it in a child
 * process (through a small SWC require hook) to test appends by another OS process.
 */

export interface SqliteEventStoreOptions {
  /** Path of the database file, or ':memory:'. */
  file: string;
  /** How often a live subscription looks for appends made by other processes; default 50 ms. */
  pollIntervalMs?: number;
  /** How long a writer waits for the lock held by another process; default 5000 ms. */
  busyTimeoutMs?: number;
  /** Rows read per query by readAll and subscriptions; default 2000. */
  pageSize?: number;
  /**
   * Checkpoint the write-ahead log from a worker thread instead of inside commits (see `startWalCheckpointer`):
   * for the long-running service; a short command (the CLI) has no use for it.
   */
  backgroundCheckpoints?: boolean;
  /**
   * Events a subscription reads from the file in full batches in a row (it is that far behind: a replay, a
   * rebuild) before a worker thread reads its next pages ahead ({@link ReadAhead}); default 5000, 0 never.
   */
  readAheadAfter?: number;
}

export type { EventRow } from './event-row';

/** An append of this process as committed: its rows, and the head of the store just before them. */
export interface Appended {
  after: GlobalPosition;
  rows: readonly EventRow[];
}

interface LockedAppend extends AppendResult {
  headBefore: GlobalPosition;
  rows: EventRow[];
}

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';

/**
 * `position` is the rowid, without AUTOINCREMENT: events are never deleted, so the next rowid is always one more
 * than the largest, and no position is ever given twice (AUTOINCREMENT would add a write of `sqlite_sequence` to
 * every append for nothing). Files made before keep their AUTOINCREMENT table, which numbers rows the same way.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    event_id    TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  );
`;

const DEFAULT_POLL_INTERVAL_MS = 50;
const DEFAULT_PAGE_SIZE = 2000;
const DEFAULT_BATCH_SIZE = 500;
const DEFAULT_READ_AHEAD_AFTER = 5000;

/** Streams whose end this connection remembers (see `knownEnds`). */
const MAX_KNOWN_ENDS = 10_000;
/** Appended events a waiting subscription keeps in memory at most; beyond that it reads them again. */
const MAX_PUSHED = 10_000;

/** No stream: the revision of its last event is -1. */
const NO_REVISION = -1;

/**
 * The embedded event store: one SQLite file in WAL mode. Positions are the rowids of the `events` table, so the
 * global order is the commit order: SQLite has one writer at a time and every append takes the write lock first
 * (`BEGIN IMMEDIATE`), so a reader never sees a position before all lower ones are committed. Several processes
 * (the API and the CLI) may append to the same file.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly appendTransaction: (
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ) => LockedAppend;
  /** Live subscriptions waiting for new events; handed every append of this process as it commits. */
  private readonly listeners = new Set<(appended: Appended) => void>();
  private readonly subscriptions = new Set<SqliteSubscription>();
  private closed = false;
  /**
   * The last revision of streams this connection has appended to or read to their end, valid while no other
   * connection commits (`PRAGMA data_version` tells): reading a stream after its known end then needs no query.
   * A command's fold reads its stream after the cached revision on every command, and that empty read was the
   * most expensive statement of a write.
   */
  private readonly knownEnds = new Map<string, number>();
  private knownDataVersion = -1;
  /** `PRAGMA data_version`, read only when the WAL-index header has moved ({@link CommitWatch}). */
  private readonly dataVersion: DataVersion;
  private checkpointer?: WalCheckpointer;
  /** Pages read ahead for subscriptions far behind (none in memory or with `readAheadAfter` 0); refuses once closed. */
  readonly readAhead?: ReadAhead;
  /** See {@link SqliteEventStoreOptions.readAheadAfter}. */
  readonly readAheadAfter: number;
  /**
   * Subscriptions waiting for events, with the `data_version` they last read the file at. One poll for all of
   * them (every poll interval, while any waits) wakes those that another connection has committed after: an idle
   * service costs one cheap statement per interval instead of a read per subscription.
   */
  private readonly waiting = new Map<() => void, number>();
  private poll?: NodeJS.Timeout;

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.readAheadAfter = options.readAheadAfter ?? DEFAULT_READ_AHEAD_AFTER;
    if (isSqliteFile(options.file)) preparePrivateFile(options.file);
    this.db = new Database(options.file, { timeout: busyTimeoutMs });
    try {
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      if (options.file !== ':memory:' && options.file !== '') this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.transaction(() => this.db.exec(SCHEMA)).immediate();
      this.statements = prepareStatements(this.db);
      const dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck(true);
      // the watch after the schema's transaction, once the -shm file exists
      this.dataVersion = new DataVersion(
        () => dataVersion.get() as number,
        isSqliteFile(options.file) ? CommitWatch.walIndexOf(options.file) : undefined,
      );
      // last: a constructor that fails leaves no worker behind
      if (options.backgroundCheckpoints && isSqliteFile(options.file)) {
        this.checkpointer = startWalCheckpointer({
          file: options.file,
          connection: this.db,
          driver: require.resolve('better-sqlite3'),
        });
      }
    } catch (error) {
      this.db.close();
      throw error;
    }
    if (this.readAheadAfter > 0 && isSqliteFile(options.file)) {
      this.readAhead = new ReadAhead({ file: options.file, driver: require.resolve('better-sqlite3'), busyTimeoutMs });
    }
    this.appendTransaction = this.db.transaction(
      (streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision) =>
        this.appendLocked(streamId, events, expected),
    ).immediate;
  }

  async append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    assertDistinctIds(streamId, events);
    let result: LockedAppend;
    try {
      result = this.appendTransaction(streamId, events, expected);
    } catch (error) {
      // A stored event id: a retry of an earlier append (its result), or a misuse (an error that says so).
      if (!isDuplicateEventId(error)) throw error;
      const retried = this.alreadyAppended(streamId, events);
      if (!retried) throw error;
      return retried;
    }
    if (result.rows.length > 0) {
      this.rememberEnd(streamId, result.nextRevision);
      this.notify({ after: result.headBefore, rows: result.rows });
    }
    return { nextRevision: result.nextRevision, position: result.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const fromRevision = Math.max(0, options.fromRevision ?? 0);
    const limit = toLimit(options.maxCount);
    if (limit === 0) return [];
    const knownEnd = this.knownEnd(streamId);
    if (knownEnd !== undefined && fromRevision > knownEnd) return [];
    const rows = this.statements.readStream.all(streamId, fromRevision, limit) as EventRow[];
    // Read to the end: the last row is the stream's last revision (a stream read from 0 without rows has none).
    if (rows.length < limit && (rows.length > 0 || fromRevision === 0)) {
      this.rememberEnd(streamId, rows.length > 0 ? rows[rows.length - 1][2] : NO_REVISION);
    }
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after ?? START, toLimit(options.maxCount));
  }

  async headPosition(): Promise<GlobalPosition> {
    this.assertOpen();
    const head = this.statements.head.get() as number | null | undefined;
    return head === null || head === undefined ? START : BigInt(head);
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const subscription = new SqliteSubscription(this, options.after ?? START, options.batchSize ?? DEFAULT_BATCH_SIZE);
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.statements.ping.get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poll);
    this.poll = undefined;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    for (const listener of [...this.listeners]) listener({ after: START, rows: [] });
    await this.readAhead?.close();
    await this.checkpointer?.stop();
    this.db.close();
    // only now: closing its descriptor would drop the locks of connections of this process still open on the file
    this.dataVersion.release();
  }

  /** Up to `limit` events after `after`, in global order (one statement: a consistent snapshot without holes). */
  readAfter(after: GlobalPosition, limit: number): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    let cursor = after < 0n ? -1 : Number(after);
    while (out.length < limit) {
      const page = Math.min(this.pageSize, limit - out.length);
      const rows = this.statements.readAll.all(cursor, page) as EventRow[];
      for (const row of rows) out.push(toRecordedEvent(row));
      if (rows.length < page) break;
      cursor = rows[rows.length - 1][0];
    }
    return out;
  }

  /**
   * Starts the read-ahead worker now rather than on the first long catch-up, and resolves once it answers: false
   * when this store reads nothing ahead (an in-memory database, `readAheadAfter` 0) or the worker could not start.
   */
  async startReadAhead(): Promise<boolean> {
    return (await this.readAhead?.start()) ?? false;
  }

  /** Registers a listener for the appends of this process (rows in commit order); returns its removal. */
  onAppend(listener: (appended: Appended) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** What `PRAGMA data_version` says now: it changes when another connection commits (see {@link waitForOthers}). */
  otherCommits(): number {
    return this.dataVersion.get();
  }

  /**
   * Calls `wake` once another connection has committed after `seen` (a value of {@link otherCommits} read before
   * the waiter last read the file), checked every poll interval; returns the removal of the waiter.
   */
  waitForOthers(seen: number, wake: () => void): () => void {
    this.waiting.set(wake, seen);
    this.poll ??= setInterval(() => this.pollForOthers(), this.pollIntervalMs);
    return () => {
      this.waiting.delete(wake);
    };
  }

  private pollForOthers(): void {
    if (this.waiting.size === 0 || this.closed) {
      clearInterval(this.poll);
      this.poll = undefined;
      return;
    }
    const version = this.otherCommits();
    for (const [wake, seen] of [...this.waiting]) {
      if (seen !== version) {
        this.waiting.delete(wake);
        wake();
      }
    }
  }

  forget(subscription: SqliteSubscription): void {
    this.subscriptions.delete(subscription);
  }

  private notify(appended: Appended): void {
    for (const listener of [...this.listeners]) listener(appended);
  }

  /** The known last revision of a stream, forgotten as soon as another connection has committed anything. */
  private knownEnd(streamId: string): number | undefined {
    const version = this.otherCommits();
    if (version !== this.knownDataVersion) {
      this.knownEnds.clear();
      this.knownDataVersion = version;
      return undefined;
    }
    return this.knownEnds.get(streamId);
  }

  private rememberEnd(streamId: string, revision: number): void {
    this.knownEnds.delete(streamId);
    if (this.knownEnds.size >= MAX_KNOWN_ENDS) this.knownEnds.delete(this.knownEnds.keys().next().value as string);
    this.knownEnds.set(streamId, revision);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event store is closed');
  }

  /**
   * Runs inside `BEGIN IMMEDIATE`: this connection holds the write lock of the file. The happy path looks up no
   * event id: a stored one makes an insert fail on the unique index, which rolls the append back (see `append`).
   */
  private appendLocked(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): LockedAppend {
    const s = this.statements;
    const last = s.lastOfStream.get(streamId) as [revision: number, position: number] | undefined;
    const current = last ? last[0] : NO_REVISION;

    try {
      checkExpected(streamId, expected, current);
    } catch (error) {
      // A retry is answered with its first result even though the stream has moved on since.
      const retried = events.length > 0 ? this.alreadyAppended(streamId, events) : null;
      if (retried) return { ...retried, headBefore: START, rows: [] };
      throw error;
    }
    if (events.length === 0) {
      return { nextRevision: current, position: last ? BigInt(last[1]) : START, headBefore: START, rows: [] };
    }

    const recordedAt = new Date().toISOString();
    const rows: EventRow[] = [];
    let revision = current;
    let position = 0;
    let first = 0;
    for (const event of events) {
      revision += 1;
      const data = JSON.stringify(event.data);
      const metadata = JSON.stringify(event.metadata ?? {});
      const info = s.insert.run(streamId, revision, event.id, event.type, data, metadata, recordedAt);
      position = Number(info.lastInsertRowid);
      if (first === 0) first = position;
      rows.push([position, streamId, revision, event.id, event.type, data, metadata, recordedAt]);
    }
    return {
      nextRevision: revision,
      position: BigInt(position),
      // The first row was numbered one past the largest position, under the write lock: that was the head.
      headBefore: first <= 1 ? START : BigInt(first - 1),
      rows,
    };
  }

  /**
   * A retry: when every event id is already in the stream, the result of the first append (nothing is written).
   * Some ids stored and others not (or stored in another stream) is a misuse and an error.
   */
  private alreadyAppended(streamId: string, events: readonly EventToAppend[]): AppendResult | null {
    let found = 0;
    let foreign: string | null = null;
    let revision = NO_REVISION;
    let position = -1;
    for (const event of events) {
      const row = this.statements.byEventId.get(event.id) as
        [streamId: string, revision: number, position: number] | undefined;
      if (!row) continue;
      if (row[0] !== streamId) foreign = event.id;
      found += 1;
      revision = Math.max(revision, row[1]);
      position = Math.max(position, row[2]);
    }
    if (foreign !== null)
      throw new Error(`stream ${streamId}: event id ${foreign} is already stored in another stream`);
    if (found === 0) return null;
    if (found < events.length) {
      throw new Error(
        `stream ${streamId}: ${found} of the ${events.length} event ids of this append are already stored`,
      );
    }
    return { nextRevision: revision, position: BigInt(position) };
  }
}

function prepareStatements(db: Database.Database) {
  return {
    lastOfStream: db
      .prepare('SELECT revision, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
      .raw(true),
    byEventId: db.prepare('SELECT stream_id, revision, position FROM events WHERE event_id = ?').raw(true),
    insert: db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    readStream: db
      .prepare(`SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`)
      .raw(true),
    readAll: db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
    head: db.prepare('SELECT MAX(position) FROM events').pluck(true),
    ping: db.prepare('SELECT 1').pluck(true),
  };
}

function assertDistinctIds(streamId: string, events: readonly EventToAppend[]): void {
  if (events.length < 2) return;
  const ids = new Set<string>();
  for (const event of events) {
    if (ids.has(event.id)) throw new Error(`stream ${streamId}: event id ${event.id} appears twice in one append`);
    ids.add(event.id);
  }
}

/**
 * The unique index on `event_id` refused an insert. Checked by shape, not `instanceof`: better-sqlite3 registers
 * its error class once per process, so under a test runner with several module registries the class may differ.
 */
function isDuplicateEventId(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.includes('events.event_id');
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: number): void {
  const actual = current === NO_REVISION ? 'no_stream' : current;
  switch (expected) {
    case 'any':
      return;
    case 'no_stream':
      if (current !== NO_REVISION) throw new WrongExpectedRevision(streamId, expected, actual);
      return;
    case 'stream_exists':
      if (current === NO_REVISION) throw new WrongExpectedRevision(streamId, expected, actual);
      return;
    default:
      if (typeof expected !== 'number' || !Number.isInteger(expected)) {
        throw new Error(`stream ${streamId}: invalid expected revision ${String(expected)}`);
      }
      if (expected !== current) throw new WrongExpectedRevision(streamId, expected, actual);
  }
}

function toLimit(maxCount: number | undefined): number {
  if (maxCount === undefined) return Number.MAX_SAFE_INTEGER;
  return Math.max(0, Math.floor(maxCount));
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return recordedEventOf(row, JSON.parse(row[5]) as Record<string, unknown>, JSON.parse(row[6]) as EventMetadata);
}

/**
 * An append of this process reaches every live subscription as the same row objects: each row is parsed once, for
 * all of them, and the event frozen, since they all hold it.
 */
const parsedRows = new WeakMap<EventRow, RecordedEvent>();

function sharedRecordedEvent(row: EventRow): RecordedEvent {
  let event = parsedRows.get(row);
  if (!event) parsedRows.set(row, (event = deepFreeze(toRecordedEvent(row))));
  return event;
}

/**
 * A catch-up subscription: pages of stored events, then waits for the next append. Appends of this process are
 * handed over as they commit and delivered from memory when they follow the subscription's position directly;
 * anything else (appends of other processes, found by a poll, or a gap) is read from the file.
 */
class SqliteSubscription implements Subscription {
  private closed = false;
  private iterating = false;
  private wake: (() => void) | null = null;
  /** Appends of this process that directly follow `position`, in order, not yet delivered. */
  private pushed: EventRow[] = [];
  /** Set when an append could not be kept in memory: the next batch is read from the file. */
  private mustRead = false;
  /** `data_version` before this subscription last read the file: a commit of another connection after it wakes it. */
  private seen = -1;
  /** Events read from the file in full batches since the subscription was last at the head. */
  private behind = 0;
  /** The next page, asked of the store's read-ahead worker: the events after `after`. */
  private ahead?: { after: GlobalPosition; id: number };
  private readonly removeListener: () => void;

  constructor(
    private readonly store: SqliteEventStore,
    private position: GlobalPosition,
    private readonly batchSize: number,
  ) {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`invalid subscription batch size ${batchSize}`);
    this.removeListener = store.onAppend((appended) => this.take(appended));
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent[]> {
    if (this.iterating) throw new Error('a subscription can be iterated only once');
    this.iterating = true;
    return this.batches();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.removeListener();
    this.pushed = [];
    this.dropAhead();
    this.store.forget(this);
    this.wake?.();
  }

  /** Keeps an append of this process when it follows what this subscription has (or will have) delivered. */
  private take(appended: Appended): void {
    if (appended.rows.length > 0 && !this.mustRead) {
      const end = this.pushed.length > 0 ? BigInt(this.pushed[this.pushed.length - 1][0]) : this.position;
      if (appended.after === end && this.pushed.length + appended.rows.length <= MAX_PUSHED) {
        for (const row of appended.rows) this.pushed.push(row);
      } else {
        this.pushed = [];
        this.mustRead = true;
      }
    }
    this.wake?.();
  }

  private async *batches(): AsyncGenerator<RecordedEvent[], void, undefined> {
    try {
      while (!this.closed && !this.store.isClosed) {
        let batch: RecordedEvent[];
        if (this.pushed.length > 0 && !this.mustRead) {
          const rows = this.pushed.length <= this.batchSize ? this.pushed : this.pushed.slice(0, this.batchSize);
          this.pushed = rows === this.pushed ? [] : this.pushed.slice(rows.length);
          batch = rows.map(sharedRecordedEvent);
          this.behind = 0;
        } else {
          // Whatever was handed over is in the file too: reading from the position covers it.
          this.pushed = [];
          this.mustRead = false;
          this.seen = this.store.otherCommits();
          batch = this.pageReadAhead() ?? this.store.readAfter(this.position, this.batchSize);
          this.askAhead(batch);
        }
        if (batch.length > 0) {
          this.position = batch[batch.length - 1].position;
          yield batch;
          // A short batch ended at the head as it stood: what follows comes from this process's next append
          // (handed over) or another process's (found by the poll), so wait unless something was handed over.
          if (batch.length < this.batchSize && this.pushed.length === 0 && !this.mustRead && !this.closed) {
            await this.nextAppend();
          }
          continue;
        }
        await this.nextAppend();
      }
    } finally {
      this.closed = true;
      this.removeListener();
      this.dropAhead();
      this.store.forget(this);
    }
  }

  /**
   * The page after the position, when the worker was asked for it and read a full one. A shorter page reached the
   * head as it stood then: it is read again from the file, as a subscription at the head reads (see `batches`).
   */
  private pageReadAhead(): RecordedEvent[] | undefined {
    const ahead = this.ahead;
    if (!ahead) return undefined;
    this.ahead = undefined;
    if (ahead.after !== this.position) {
      this.store.readAhead?.forget(ahead.id);
      return undefined;
    }
    const page = this.store.readAhead?.take(ahead.id);
    return page?.length === this.batchSize ? page : undefined;
  }

  private dropAhead(): void {
    if (this.ahead) this.store.readAhead?.forget(this.ahead.id);
    this.ahead = undefined;
  }

  /** After a full batch read from the file, far enough behind: the next page is asked of the worker. */
  private askAhead(batch: RecordedEvent[]): void {
    if (batch.length < this.batchSize) {
      this.behind = 0;
      return;
    }
    this.behind += batch.length;
    const threshold = this.store.readAheadAfter;
    if (threshold <= 0 || this.behind < threshold) return;
    const after = batch[batch.length - 1].position;
    const id = this.store.readAhead?.ask(after, this.batchSize);
    if (id !== undefined) this.ahead = { after, id };
  }

  /** Resolves on an append of this process, a commit of another connection (found by the store's poll), or close. */
  private nextAppend(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        stopWaiting();
        this.wake = null;
        resolve();
      };
      const stopWaiting = this.store.waitForOthers(this.seen, done);
      this.wake = done;
    });
  }
}
