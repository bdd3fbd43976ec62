/**
 * The contract of the event-store port, run against every adapter: always on SQLite, and on EventStoreDB when
 * EVENTSTORE_CONNECTION_STRING is set. Stream names carry a random suffix and the tests only look at their own
 * streams, so the suite can run against a shared server.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import {
  START,
  WrongExpectedRevision,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type RecordedEvent,
  type Subscription,
} from '@app/kernel';
import { SqliteEventStore, createEventStore } from '@app/event-store';
import { EventStoreDbEventStore } from '@app/event-store/eventstoredb-event-store';
import { ReadAhead } from '@app/event-store/read-ahead';

interface AdapterUnderTest {
  /** Opens a store for one test; a fresh, empty one where the adapter allows it. */
  open(): Promise<EventStore>;
  /** Whether a freshly opened store is empty (a private file), rather than a shared server. */
  startsEmpty: boolean;
}

const run = randomUUID().slice(0, 8);
let streamCounter = 0;

/** A stream name no other test (nor another run on a shared server) uses. */
function uniqueStream(category = 'contract'): string {
  streamCounter += 1;
  return `${category}-${run}${streamCounter}${randomUUID().slice(0, 6)}`;
}

function event(type = 'ThingHappened', data: Record<string, unknown> = {}, metadata?: EventToAppend['metadata']) {
  return { id: randomUUID(), type, data, ...(metadata ? { metadata } : {}) } satisfies EventToAppend;
}

async function expectWrongRevision(
  promise: Promise<unknown>,
  actual: number | 'no_stream',
  expected?: ExpectedRevision,
): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevision);
  expect((error as WrongExpectedRevision).actual).toBe(actual);
  if (expected !== undefined) expect((error as WrongExpectedRevision).expected).toBe(expected);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Reads a subscription step by step, keeping one iterator (a subscription is iterated once). */
class SubscriptionReader {
  private readonly iterator: AsyncIterator<RecordedEvent[]>;
  private pending: Promise<IteratorResult<RecordedEvent[]>> | null = null;
  readonly batches: RecordedEvent[][] = [];
  readonly events: RecordedEvent[] = [];

  constructor(readonly subscription: Subscription) {
    this.iterator = subscription[Symbol.asyncIterator]();
  }

  /** Reads batches until `done(events)` holds; fails after `timeoutMs`. */
  async until(done: (events: RecordedEvent[]) => boolean, timeoutMs = 3000): Promise<RecordedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.events)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`subscription: condition not met in ${timeoutMs} ms (${this.events.length} events)`);
      const result = await this.next(left);
      if (result === 'timeout') continue;
      if (result.done) throw new Error('subscription ended early');
      this.batches.push(result.value);
      this.events.push(...result.value);
    }
    return this.events;
  }

  /** The next step of the iterator, or 'timeout' (the step stays pending and is awaited by the next call). */
  next(timeoutMs: number): Promise<IteratorResult<RecordedEvent[]> | 'timeout'> {
    this.pending ??= this.iterator.next();
    const pending = this.pending;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    return Promise.race([
      pending.then((result) => {
        this.pending = null;
        return result;
      }),
      timeout,
    ]).finally(() => clearTimeout(timer));
  }
}

function eventStoreContract(adapter: AdapterUnderTest): void {
  let store: EventStore;

  beforeEach(async () => {
    store = await adapter.open();
  });

  afterEach(async () => {
    await store.close();
  });

  describe('append and read', () => {
    it('round-trips events with their data, metadata, revision, position and time', async () => {
      const stream = uniqueStream();
      const first = event(
        'SpaceCreated',
        { spaceId: 's1', title: 'Hello', nested: { list: [1, 'two', null] } },
        {
          correlationId: 'corr-1',
          userId: 'u1',
          extra: { any: true },
        },
      );
      const second = event('SpaceRenamed', { spaceId: 's1', title: 'Hello again' });
      const before = Date.now();
      const result = await store.append(stream, [first, second], 'no_stream');

      expect(result.nextRevision).toBe(1);
      expect(typeof result.position).toBe('bigint');
      expect(result.position).toBeGreaterThan(START);

      const events = await store.readStream(stream);
      expect(events).toHaveLength(2);
      expect(events.map((e) => [e.id, e.streamId, e.type, e.revision])).toEqual([
        [first.id, stream, 'SpaceCreated', 0],
        [second.id, stream, 'SpaceRenamed', 1],
      ]);
      expect(events[0].data).toEqual(first.data);
      expect(events[0].metadata).toEqual(first.metadata);
      expect(events[1].data).toEqual(second.data);
      expect(events[1].metadata).toEqual({});
      expect(events[0].position).toBeLessThan(events[1].position);
      expect(events[1].position).toBe(result.position);
      for (const e of events) {
        expect(typeof e.recordedAt).toBe('string');
        const time = Date.parse(e.recordedAt);
        expect(new Date(time).toISOString()).toBe(e.recordedAt);
        // Generous bounds: a server's clock may differ a little from ours.
        expect(Math.abs(time - before)).toBeLessThan(60_000);
      }
    });

    it('returns an empty array for a stream that does not exist', async () => {
      expect(await store.readStream(uniqueStream())).toEqual([]);
    });

    it('reads a stream from a revision, at most maxCount events', async () => {
      const stream = uniqueStream();
      const events = Array.from({ length: 10 }, (_, i) => event('Counted', { i }));
      await store.append(stream, events, 'no_stream');

      const fromFour = await store.readStream(stream, { fromRevision: 4 });
      expect(fromFour.map((e) => e.revision)).toEqual([4, 5, 6, 7, 8, 9]);
      const some = await store.readStream(stream, { fromRevision: 2, maxCount: 3 });
      expect(some.map((e) => e.data.i)).toEqual([2, 3, 4]);
      expect(await store.readStream(stream, { fromRevision: 10 })).toEqual([]);
      expect((await store.readStream(stream, { maxCount: 1 })).map((e) => e.id)).toEqual([events[0].id]);
    });

    it('treats an empty append as a no-op that returns the current revision', async () => {
      const stream = uniqueStream();
      const missing = await store.append(stream, [], 'any');
      expect(missing.nextRevision).toBe(-1);
      const written = await store.append(stream, [event(), event()], 'no_stream');
      const empty = await store.append(stream, [], 'any');
      expect(empty.nextRevision).toBe(1);
      expect(empty.position).toBe(written.position);
      expect(await store.readStream(stream)).toHaveLength(2);
    });
  });

  describe('expected revision', () => {
    it("'no_stream' succeeds on a new stream and fails once it exists", async () => {
      const stream = uniqueStream();
      await expect(store.append(stream, [event()], 'no_stream')).resolves.toMatchObject({ nextRevision: 0 });
      await store.append(stream, [event()], 0);
      await expectWrongRevision(store.append(stream, [event()], 'no_stream'), 1, 'no_stream');
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it("'stream_exists' fails on a missing stream and succeeds on an existing one", async () => {
      const stream = uniqueStream();
      await expectWrongRevision(store.append(stream, [event()], 'stream_exists'), 'no_stream', 'stream_exists');
      expect(await store.readStream(stream)).toEqual([]);
      await store.append(stream, [event()], 'no_stream');
      await expect(store.append(stream, [event()], 'stream_exists')).resolves.toMatchObject({ nextRevision: 1 });
    });

    it('an exact revision succeeds when it is the last one and fails otherwise', async () => {
      const stream = uniqueStream();
      await expectWrongRevision(store.append(stream, [event()], 0), 'no_stream', 0);
      await store.append(stream, [event(), event()], 'no_stream');
      await expectWrongRevision(store.append(stream, [event()], 0), 1, 0);
      await expectWrongRevision(store.append(stream, [event()], 5), 1, 5);
      await expect(store.append(stream, [event(), event()], 1)).resolves.toMatchObject({ nextRevision: 3 });
      await expect(store.append(stream, [event()], 3)).resolves.toMatchObject({ nextRevision: 4 });
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    });

    it("'any' appends whatever the state of the stream", async () => {
      const stream = uniqueStream();
      await expect(store.append(stream, [event()], 'any')).resolves.toMatchObject({ nextRevision: 0 });
      await expect(store.append(stream, [event()], 'any')).resolves.toMatchObject({ nextRevision: 1 });
    });

    it('checks the expected revision of an empty append too', async () => {
      const stream = uniqueStream();
      await expectWrongRevision(store.append(stream, [], 'stream_exists'), 'no_stream');
      await store.append(stream, [event()], 'no_stream');
      await expectWrongRevision(store.append(stream, [], 'no_stream'), 0);
      await expect(store.append(stream, [], 0)).resolves.toMatchObject({ nextRevision: 0 });
    });
  });

  describe('idempotence', () => {
    it('a retried append with the same event ids writes nothing and returns the first result', async () => {
      const stream = uniqueStream();
      const batch = [event('A'), event('B')];
      const first = await store.append(stream, batch, 'no_stream');
      const retry = await store.append(stream, batch, 'no_stream');
      expect(retry).toEqual(first);
      expect(await store.append(stream, batch, 'any')).toEqual(first);
      expect(await store.append(stream, batch, 'stream_exists')).toEqual(first);

      const next = await store.append(stream, [event('C')], 1);
      // Retried again after the stream moved on: still the first result, no revision error.
      const late = await store.append(stream, batch, 'no_stream');
      expect(late).toEqual(first);

      const events = await store.readStream(stream);
      expect(events.map((e) => e.type)).toEqual(['A', 'B', 'C']);
      expect(events[2].position).toBe(next.position);
      expect(await store.headPosition()).toBeGreaterThanOrEqual(next.position);
    });
  });

  describe('global order', () => {
    it('reads every stream in global order, after a position, at most maxCount', async () => {
      const before = await store.headPosition();
      const a = uniqueStream('alpha');
      const b = uniqueStream('beta');
      await store.append(a, [event('A1')], 'no_stream');
      await store.append(b, [event('B1'), event('B2')], 'no_stream');
      const last = await store.append(a, [event('A2')], 0);

      const all = (await store.readAll({ after: before })).filter((e) => e.streamId === a || e.streamId === b);
      expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
      for (let i = 1; i < all.length; i += 1) expect(all[i].position).toBeGreaterThan(all[i - 1].position);
      expect(all[3].position).toBe(last.position);

      const afterSecond = (await store.readAll({ after: all[1].position })).filter(
        (e) => e.streamId === a || e.streamId === b,
      );
      expect(afterSecond.map((e) => e.type)).toEqual(['B2', 'A2']);

      const limited = await store.readAll({ after: before, maxCount: 2 });
      expect(limited).toHaveLength(2);
      expect(limited[0].position).toBeGreaterThan(before);

      expect(await store.readAll({ after: last.position })).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ streamId: a })]),
      );
    });

    it('reports the head position: the position of the last append', async () => {
      if (adapter.startsEmpty) expect(await store.headPosition()).toBe(START);
      const stream = uniqueStream();
      const first = await store.append(stream, [event()], 'no_stream');
      expect(await store.headPosition()).toBeGreaterThanOrEqual(first.position);
      const second = await store.append(stream, [event(), event()], 0);
      const head = await store.headPosition();
      expect(head).toBeGreaterThanOrEqual(second.position);
      if (adapter.startsEmpty) expect(head).toBe(second.position);
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });

  describe('subscription to all', () => {
    it('delivers stored events, then live ones, in order and in batches; close ends the iteration', async () => {
      const before = await store.headPosition();
      const stream = uniqueStream();
      const mine = (events: RecordedEvent[]) => events.filter((e) => e.streamId === stream);
      await store.append(
        stream,
        [event('Stored', { i: 0 }), event('Stored', { i: 1 }), event('Stored', { i: 2 })],
        'no_stream',
      );

      const reader = new SubscriptionReader(store.subscribeToAll({ after: before, batchSize: 2 }));
      await reader.until((events) => mine(events).length >= 3);

      await store.append(stream, [event('Live', { i: 3 })], 2);
      await store.append(stream, [event('Live', { i: 4 })], 3);
      const seen = mine(await reader.until((events) => mine(events).length >= 5));

      expect(seen.map((e) => [e.type, e.data.i, e.revision])).toEqual([
        ['Stored', 0, 0],
        ['Stored', 1, 1],
        ['Stored', 2, 2],
        ['Live', 3, 3],
        ['Live', 4, 4],
      ]);
      for (const batch of reader.batches) expect(batch.length).toBeLessThanOrEqual(2);
      for (let i = 1; i < reader.events.length; i += 1) {
        expect(reader.events[i].position).toBeGreaterThan(reader.events[i - 1].position);
      }
      expect(reader.events[0].position).toBeGreaterThan(before);

      // A pending step resolves as done promptly once the subscription is closed.
      const pending = reader.next(2000);
      await delay(20);
      const started = Date.now();
      await reader.subscription.close();
      const result = await pending;
      expect(result).not.toBe('timeout');
      expect(result === 'timeout' ? false : result.done).toBe(true);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('starts after the given position', async () => {
      const stream = uniqueStream();
      await store.append(stream, [event('Old')], 'no_stream');
      const from = await store.append(stream, [event('Older')], 0);
      await store.append(stream, [event('New')], 1);
      const reader = new SubscriptionReader(store.subscribeToAll({ after: from.position }));
      const seen = await reader.until((events) => events.some((e) => e.streamId === stream));
      expect(seen.filter((e) => e.streamId === stream).map((e) => e.type)).toEqual(['New']);
      expect(seen.every((e) => e.position > from.position)).toBe(true);
      await reader.subscription.close();
    });
  });

  describe('concurrency', () => {
    it('lets exactly one of 100 concurrent appends with the same expected revision win', async () => {
      const stream = uniqueStream();
      await store.append(stream, [event('Created')], 'no_stream');
      const attempts = Array.from({ length: 100 }, (_, i) => event('Raced', { i }));
      const results = await Promise.allSettled(attempts.map((e) => store.append(stream, [e], 0)));

      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(99);
      for (const failure of lost) {
        expect(failure.reason).toBeInstanceOf(WrongExpectedRevision);
        expect((failure.reason as WrongExpectedRevision).actual).toBe(1);
      }
      const events = await store.readStream(stream);
      expect(events.map((e) => e.type)).toEqual(['Created', 'Raced']);
      const winner = attempts[results.findIndex((r) => r.status === 'fulfilled')];
      expect(events[1].id).toBe(winner.id);
    });

    it('never lets a reader of the global order see a hole filled later (8 writers, 400 appends)', async () => {
      const before = await store.headPosition();
      const writers = 8;
      const perWriter = 50;
      const streams = Array.from({ length: writers }, () => uniqueStream('writer'));
      const ours = new Set(streams);

      let writing = true;
      const seen: RecordedEvent[] = [];
      let violations = 0;
      const reader = (async () => {
        let last: GlobalPosition = before;
        const poll = async () => {
          const page = await store.readAll({ after: last, maxCount: 500 });
          for (const e of page) {
            if (e.position <= last) violations += 1;
            last = e.position;
            if (ours.has(e.streamId)) seen.push(e);
          }
          return page.length;
        };
        while (writing) {
          await poll();
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Drain what the writers appended last.
        while ((await poll()) > 0);
      })();

      await Promise.all(
        streams.map(async (stream) => {
          for (let i = 0; i < perWriter; i += 1) {
            await store.append(stream, [event('Wrote', { i })], i === 0 ? 'no_stream' : i - 1);
            if (i % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
          }
        }),
      );
      writing = false;
      await reader;

      expect(violations).toBe(0);
      expect(seen).toHaveLength(writers * perWriter);
      for (let i = 1; i < seen.length; i += 1) expect(seen[i].position).toBeGreaterThan(seen[i - 1].position);
      for (const stream of streams) {
        expect(seen.filter((e) => e.streamId === stream).map((e) => e.revision)).toEqual(
          Array.from({ length: perWriter }, (_, i) => i),
        );
      }
    });
  });
}

describe('SQLite adapter', () => {
  let dir: string;
  let files = 0;
  const newFile = () => path.join(dir, `events-${(files += 1)}.db`);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-event-store-'));
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('contract', () => {
    eventStoreContract({
      startsEmpty: true,
      // as the service opens it: the write-ahead log checkpointed by a worker thread
      open: () =>
        createEventStore({ driver: 'sqlite', file: newFile(), pollIntervalMs: 20, backgroundCheckpoints: true }),
    });
  });

  describe('contract, with the read-ahead worker running and asked after every full batch', () => {
    eventStoreContract({
      startsEmpty: true,
      open: async () => {
        const store = new SqliteEventStore({ file: newFile(), pollIntervalMs: 20, readAheadAfter: 1 });
        // started now: a catch-up of a few events is over before a worker started on demand would answer
        if (!(await store.startReadAhead())) throw new Error('the read-ahead worker did not start');
        return store;
      },
    });
  });

  describe('specific to the embedded file', () => {
    it('keeps the database, its WAL files and a folder it creates private to this user (0600, 0700)', async () => {
      const folder = path.join(dir, 'private-events');
      const file = path.join(folder, 'events.db');
      const store = await createEventStore({ driver: 'sqlite', file });
      try {
        await store.append(uniqueStream(), [event()], 'no_stream');
        expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
        for (const name of ['events.db', 'events.db-wal', 'events.db-shm']) {
          expect({ name, mode: fs.statSync(path.join(folder, name)).mode & 0o777 }).toEqual({ name, mode: 0o600 });
        }
      } finally {
        await store.close();
      }
      // a file an older version left readable by others is narrowed when opened again
      fs.chmodSync(file, 0o644);
      const again = await createEventStore({ driver: 'sqlite', file });
      await again.close();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    });

    it('creates the parent folder of the file and keeps events across reopening', async () => {
      const file = path.join(dir, 'nested', 'deeper', 'events.db');
      const stream = uniqueStream();
      const first = await createEventStore({ driver: 'sqlite', file });
      const written = await first.append(stream, [event('Kept', { n: 1 })], 'no_stream');
      await first.close();

      const second = await createEventStore({ driver: 'sqlite', file });
      try {
        expect((await second.readStream(stream)).map((e) => e.data)).toEqual([{ n: 1 }]);
        expect(await second.headPosition()).toBe(written.position);
        await expect(second.append(stream, [event()], 0)).resolves.toMatchObject({ nextRevision: 1 });
      } finally {
        await second.close();
      }
    });

    it('copies the write-ahead log into the database file from a worker when asked to, not inside commits', async () => {
      const grows = async (backgroundCheckpoints: boolean) => {
        const file = newFile();
        const store = await createEventStore({ driver: 'sqlite', file, backgroundCheckpoints });
        try {
          const before = fs.statSync(file).size;
          // about 100 pages: far below SQLite's own checkpoint threshold of 1,000
          for (let i = 0; i < 50; i++)
            await store.append(uniqueStream(), [event('Big', { text: 'x'.repeat(8000) })], 'any');
          // the worker checkpoints every 200 ms; without it nothing is copied however long one waits
          const until = Date.now() + (backgroundCheckpoints ? 3000 : 800);
          while (fs.statSync(file).size === before && Date.now() < until) await delay(50);
          return fs.statSync(file).size > before;
        } finally {
          await store.close();
        }
      };
      expect(await grows(true)).toBe(true);
      expect(await grows(false)).toBe(false);
    });

    it('works in memory', async () => {
      const store = new SqliteEventStore({ file: ':memory:' });
      try {
        await store.append('memory-1', [event()], 'no_stream');
        expect(await store.readAll()).toHaveLength(1);
      } finally {
        await store.close();
      }
    });

    it('rejects an append of which only some event ids are already stored', async () => {
      const store = await createEventStore({ driver: 'sqlite', file: newFile() });
      try {
        const stream = uniqueStream();
        const a = event('A');
        await store.append(stream, [a], 'no_stream');
        const error = await store.append(stream, [a, event('B')], 'any').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(WrongExpectedRevision);
        await expect(store.append(uniqueStream(), [a], 'any')).rejects.toThrow(/another stream/);
        await expect(store.append(stream, [event('C'), a], 'any')).rejects.toThrow();
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A']);
      } finally {
        await store.close();
      }
    });

    it('ends subscriptions when the store closes', async () => {
      const store = await createEventStore({ driver: 'sqlite', file: newFile() });
      const reader = new SubscriptionReader(store.subscribeToAll());
      const pending = reader.next(2000);
      await delay(10);
      await store.close();
      const result = await pending;
      expect(result === 'timeout' ? 'timeout' : result.done).toBe(true);
    });

    it('delivers live events appended by another process to the same file', async () => {
      const file = newFile();
      const store = await createEventStore({ driver: 'sqlite', file, pollIntervalMs: 20 });
      try {
        const mine = uniqueStream('parent');
        const theirs = uniqueStream('child');
        await store.append(mine, [event('ParentWrote', { i: -1 })], 'no_stream');
        const reader = new SubscriptionReader(store.subscribeToAll({ batchSize: 50 }));
        await reader.until((events) => events.length >= 1);

        const count = 100;
        const child = fork(
          path.join(__dirname, 'helpers', 'event-store-child-writer.js'),
          [file, theirs, String(count)],
          {
            execArgv: [],
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          },
        );
        const report = new Promise<{ ok: boolean; pid?: number; positions?: string[]; error?: string }>(
          (resolve, reject) => {
            child.once('message', (message) => resolve(message as { ok: boolean }));
            child.once('error', reject);
            child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited with ${code}`))));
          },
        );

        // The parent keeps appending while the child does.
        const parentWrites = (async () => {
          for (let i = 0; i < count; i += 1) {
            await store.append(mine, [event('ParentWrote', { i })], i);
            await delay(i % 10 === 0 ? 2 : 0);
          }
        })();

        const [message] = await Promise.all([report, parentWrites]);
        expect(message.error).toBeUndefined();
        expect(message.ok).toBe(true);
        expect(message.pid).not.toBe(process.pid);

        const events = await reader.until(
          (seen) => seen.filter((e) => e.streamId === theirs).length >= count && seen.length >= 2 * count + 1,
          5000,
        );
        const fromChild = events.filter((e) => e.streamId === theirs);
        expect(fromChild.map((e) => e.revision)).toEqual(Array.from({ length: count }, (_, i) => i));
        expect(fromChild.map((e) => e.position.toString())).toEqual(message.positions);
        expect(fromChild.every((e) => e.type === 'ChildWrote' && e.data.pid === message.pid)).toBe(true);
        for (let i = 1; i < events.length; i += 1) expect(events[i].position).toBeGreaterThan(events[i - 1].position);
        expect(events.filter((e) => e.streamId === mine)).toHaveLength(count + 1);
        await reader.subscription.close();
      } finally {
        await store.close();
      }
    });

    it('reads what another connection appended to a stream whose end this connection already knew', async () => {
      const file = newFile();
      const mine = new SqliteEventStore({ file });
      const other = new SqliteEventStore({ file });
      try {
        const stream = uniqueStream();
        await mine.append(stream, [event('A')], 'no_stream');
        expect(await mine.readStream(stream, { fromRevision: 1 })).toEqual([]); // the end is known: no query
        await other.append(stream, [event('B'), event('C')], 0);
        expect((await mine.readStream(stream, { fromRevision: 1 })).map((e) => e.type)).toEqual(['B', 'C']);
        // known again after that read, and forgotten again after the next foreign commit
        expect(await mine.readStream(stream, { fromRevision: 3 })).toEqual([]);
        await other.append(stream, [event('D')], 2);
        expect((await mine.readStream(stream, { fromRevision: 3 })).map((e) => e.type)).toEqual(['D']);
        await expect(mine.append(stream, [event('E')], 2)).rejects.toBeInstanceOf(WrongExpectedRevision);
      } finally {
        await other.close();
        await mine.close();
      }
    });

    it('goes on numbering a file made with the earlier AUTOINCREMENT table, live subscriptions included', async () => {
      const file = newFile();
      const earlier = new Database(file);
      earlier.exec(`CREATE TABLE events (
        position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
        event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
        recorded_at TEXT NOT NULL, UNIQUE (stream_id, revision))`);
      const stream = uniqueStream();
      const insert = earlier.prepare(
        `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at)
         VALUES (?, ?, ?, 'Old', '{}', '{}', '2026-01-01T00:00:00.000Z')`,
      );
      for (let revision = 0; revision < 3; revision += 1) insert.run(stream, revision, randomUUID());
      earlier.close();

      const store = new SqliteEventStore({ file, pollIntervalMs: 10 });
      try {
        const reader = new SubscriptionReader(store.subscribeToAll({ after: 3n }));
        const appended = await store.append(stream, [event('New')], 2);
        expect(appended).toEqual({ nextRevision: 3, position: 4n });
        await store.append(uniqueStream(), [event('Newer')], 'no_stream');
        const seen = await reader.until((events) => events.length >= 2);
        expect(seen.map((e) => [e.position, e.type])).toEqual([
          [4n, 'New'],
          [5n, 'Newer'],
        ]);
        await reader.subscription.close();
      } finally {
        await store.close();
      }
    });

    it('delivers in order what this connection and another one append in turns to a live subscription', async () => {
      const file = newFile();
      const mine = new SqliteEventStore({ file, pollIntervalMs: 10 });
      const other = new SqliteEventStore({ file });
      try {
        const reader = new SubscriptionReader(mine.subscribeToAll({ batchSize: 3 }));
        const stream = uniqueStream();
        const theirs = uniqueStream();
        for (let i = 0; i < 20; i += 1) {
          await mine.append(stream, [event('Mine', { i })], 'any');
          if (i % 3 === 0) await other.append(theirs, [event('Theirs', { i })], 'any');
          if (i % 5 === 0) await mine.append(stream, [event('Mine', { i, second: true }), event('Mine', { i })], 'any');
          if (i % 4 === 0) await reader.until((events) => events.length > 0);
        }
        const all = await mine.readAll();
        const seen = await reader.until((events) => events.length >= all.length);
        expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
        expect(seen.map((e) => e.data)).toEqual(all.map((e) => e.data));
        await reader.subscription.close();
      } finally {
        await other.close();
        await mine.close();
      }
    });

    it('wakes an idle live subscription for what only another connection appends, each time', async () => {
      const file = newFile();
      const mine = new SqliteEventStore({ file, pollIntervalMs: 10 });
      const other = new SqliteEventStore({ file });
      try {
        const reader = new SubscriptionReader(mine.subscribeToAll({ batchSize: 10 }));
        const theirs = uniqueStream();
        for (let i = 0; i < 3; i += 1) {
          // the subscription has caught up and waits with nothing of this connection to hand it
          await delay(30);
          await other.append(theirs, [event('Theirs', { i })], 'any');
          const seen = await reader.until((events) => events.length > i, 2000);
          expect(seen.map((e) => e.data)).toEqual(Array.from({ length: i + 1 }, (_, n) => ({ i: n })));
        }
        await reader.subscription.close();
      } finally {
        await other.close();
        await mine.close();
      }
    });

    it('delivers a long catch-up read ahead by a worker exactly as the file holds it, appends made meanwhile included', async () => {
      const file = newFile();
      const store = new SqliteEventStore({ file, readAheadAfter: 200 });
      const take = jest.spyOn(ReadAhead.prototype, 'take');
      try {
        const texts = [
          'plain',
          'naïve café ☕',
          'line\nbreak "quoted" \\ back\u2028slash',
          '🙂 \u0000 nul',
          '{"not": "json"}',
        ];
        for (let s = 0; s < 300; s += 1) {
          const batch = Array.from({ length: 10 }, (_, i) =>
            event(
              'Bulk',
              { s, i, text: texts[(s + i) % texts.length], nested: { list: [i, null, true] } },
              { userId: `u${s}` },
            ),
          );
          await store.append(`bulk-${s % 7}`, batch, 'any');
        }
        expect(await store.startReadAhead()).toBe(true);
        const reader = new SubscriptionReader(store.subscribeToAll({ batchSize: 100 }));
        let appended = 0;
        // appends of this process while the subscription is behind: each must arrive once, in order
        const seen = await reader.until((events) => {
          if (events.length >= 1000 && appended < 20) {
            appended += 1;
            void store.append('late', [event('Late', { n: appended, text: texts[appended % texts.length] })], 'any');
          }
          return events.length >= 3020;
        }, 20_000);
        const all = await store.readAll();
        expect(all).toHaveLength(3020);
        expect(seen).toEqual(all);
        const fromWorker = take.mock.results.filter((result) => Array.isArray(result.value));
        expect(fromWorker.length).toBeGreaterThan(0);
        await reader.subscription.close();
      } finally {
        take.mockRestore();
        await store.close();
      }
    });

    it('refuses requests once its worker has failed, to start or on a page, so that subscriptions read themselves', async () => {
      const driver = require.resolve('better-sqlite3');
      const empty = newFile();
      new Database(empty).close(); // no events table: the worker's statement cannot be prepared
      const cannotStart = new ReadAhead({ file: empty, driver, busyTimeoutMs: 1000 });
      try {
        expect(await cannotStart.start()).toBe(false);
        expect(cannotStart.ask(START, 10)).toBeUndefined();
      } finally {
        await cannotStart.close();
      }

      const corrupt = newFile();
      await new SqliteEventStore({ file: corrupt }).close();
      const db = new Database(corrupt);
      db.prepare(
        "INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES ('s', 0, 'e', 'T', '{not json', '{}', 'now')",
      ).run();
      db.close();
      const failsOnAPage = new ReadAhead({ file: corrupt, driver, busyTimeoutMs: 1000 });
      try {
        expect(await failsOnAPage.start()).toBe(true);
        const id = failsOnAPage.ask(START, 10);
        expect(id).toBeDefined();
        expect(failsOnAPage.take(id as number)).toBeUndefined();
        expect(failsOnAPage.ask(START, 10)).toBeUndefined();
      } finally {
        await failsOnAPage.close();
      }
    });

    it('stores 20,000 events in batches and reads them all back in order (speed is measured in bench/)', async () => {
      const store = new SqliteEventStore({ file: newFile() });
      try {
        const total = 20_000;
        for (let s = 0; s < total / 10; s += 1) {
          const batch = Array.from({ length: 10 }, (_, i) => event('Bulk', { s, i, text: 'x'.repeat(100) }));
          await store.append(`bulk-${s % 100}`, batch, 'any');
        }
        const all = await store.readAll();
        expect(all).toHaveLength(total);
        expect(all[total - 1].position).toBe(await store.headPosition());
      } finally {
        await store.close();
      }
    });
  });
});

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
if (connectionString) {
  describe('EventStoreDB adapter', () => {
    eventStoreContract({
      startsEmpty: false,
      open: async () => new EventStoreDbEventStore({ connectionString }),
    });
  });
} else {
  describe.skip('EventStoreDB adapter (skipped: EVENTSTORE_CONNECTION_STRING is not set)', () => {
    it('passes the event-store contract', () => undefined);
  });
}
