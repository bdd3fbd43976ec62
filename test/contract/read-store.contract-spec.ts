import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Doc, type Filter, type FindCursor, type ReadStore, type SortSpec, databaseNameOf } from '@app/kernel';
import { MongoReadStore, SqliteReadStore, createReadStore } from '@app/read-store';

/** Applies read-store writes from a second OS process (as a second service instance would) and waits for it. */
function writeFromAnotherProcess(file: string, ops: { kind: string; collection: string; [key: string]: unknown }[]) {
  return new Promise<void>((resolve, reject) => {
    const child = fork(join(__dirname, 'helpers', 'read-store-child-writer.js'), [file, JSON.stringify(ops)], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (message: { ok: boolean; pid: number; error?: string }) =>
      message.ok && message.pid !== process.pid ? resolve() : reject(new Error(message.error ?? 'child failed')),
    );
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited with ${code}`))));
  });
}

interface Adapter {
  open(): Promise<ReadStore>;
  /** A second connection to the same data, as another process would hold. */
  another(): Promise<ReadStore>;
  close?(): Promise<void>;
  /** Whether a failed write batch leaves nothing behind (a MongoDB server without transactions does not). */
  atomic(store: ReadStore): Promise<boolean>;
}

/**
 * The read-store contract: every adapter passes it. SQLite always runs; MongoDB runs when MONGODB_URL is set
 * (for example mongodb://localhost:27017/quire_test), and says why it skips otherwise.
 */
function contract(name: string, adapter: Adapter) {
  describe(name, () => {
    let store: ReadStore;
    let atomic: boolean;
    let collection: string;

    beforeAll(async () => {
      store = await adapter.open();
      atomic = await adapter.atomic(store);
    });

    afterAll(async () => {
      await store.close();
      await adapter.close?.();
    });

    beforeEach(() => {
      collection = `t_${randomBytes(6).toString('hex')}`;
    });

    const put = (doc: Doc, position = 1n) => ({ kind: 'put' as const, collection, doc, position });

    async function fill(docs: Doc[]) {
      await store.write(docs.map((doc, index) => put(doc, BigInt(index + 1))));
    }

    /** Every document reachable by following `next` from the first page, in order. */
    async function pageThrough(filter: Filter | undefined, sort: SortSpec, limit: number): Promise<string[]> {
      const seen: string[] = [];
      let after: FindCursor | undefined;
      for (let guard = 0; guard < 1000; guard++) {
        const page = await store.find(collection, { filter, sort, limit, after });
        seen.push(...page.items.map((d) => d.id));
        if (!page.next) return seen;
        after = JSON.parse(JSON.stringify(page.next)) as FindCursor; // cursors survive a JSON round trip
      }
      throw new Error('pagination did not end');
    }

    it('stores documents with the position they reflect (positions beyond 64 bits too)', async () => {
      await store.ensureCollection(collection, [{ fields: [['name', 1]] }]);
      const big = 2n ** 70n + 12345n;
      await store.write([put({ id: 'a', name: 'Ada', nested: { n: 1 } }, big)]);
      expect(await store.get(collection, 'a')).toEqual({ id: 'a', name: 'Ada', nested: { n: 1 } });
      expect(await store.getStored(collection, 'a')).toEqual({
        doc: { id: 'a', name: 'Ada', nested: { n: 1 } },
        position: big,
      });
      expect(await store.get(collection, 'missing')).toBeNull();
      await store.write([put({ id: 'a', name: 'Ada L.' }, big + 1n)]);
      expect(await store.getStored(collection, 'a')).toEqual({ doc: { id: 'a', name: 'Ada L.' }, position: big + 1n });
      await store.write([{ kind: 'delete', collection, id: 'a', position: big + 2n }]);
      expect(await store.get(collection, 'a')).toBeNull();
    });

    it('reads many documents with their positions at once, leaving out ids without one, cached or not', async () => {
      await store.ensureCollection(collection, []);
      await store.write([put({ id: 'a', n: 1 }, 3n), put({ id: 'b', n: 2 }, 4n)]);
      // 'a' read before (a caching adapter holds it), 'b' not, 'gone' never written, 'a' asked twice
      expect(await store.get(collection, 'a')).toEqual({ id: 'a', n: 1 });
      const many = await store.getStoredMany(collection, ['a', 'b', 'gone', 'a']);
      expect(new Map(many)).toEqual(
        new Map([
          ['a', { doc: { id: 'a', n: 1 }, position: 3n }],
          ['b', { doc: { id: 'b', n: 2 }, position: 4n }],
        ]),
      );
      expect((await store.getStoredMany(collection, [])).size).toBe(0);
      const ids = Array.from({ length: 300 }, (_, index) => `many${index}`);
      await store.write(ids.filter((_, index) => index % 3 === 0).map((id) => put({ id }, 5n)));
      const read = await store.getStoredMany(collection, ids);
      expect([...read.keys()].sort()).toEqual(ids.filter((_, index) => index % 3 === 0).sort());
      // what it found missing, it finds once written
      await store.write([put({ id: 'gone', n: 3 }, 6n), { kind: 'delete', collection, id: 'a', position: 7n }]);
      const after = await store.getStoredMany(collection, ['a', 'gone']);
      expect([...after.entries()]).toEqual([['gone', { doc: { id: 'gone', n: 3 }, position: 6n }]]);
    });

    it('keeps counts and list totals true after writes from this and another connection', async () => {
      await store.ensureCollection(collection, [{ fields: [['kind', 1]] }]);
      await fill([
        { id: 'a', kind: 'x' },
        { id: 'b', kind: 'x' },
        { id: 'c', kind: 'y' },
      ]);
      const totals = async () => [
        await store.count(collection, { kind: 'x' }),
        (await store.find(collection, { filter: { kind: 'x' }, limit: 1 })).total,
        (await store.find(collection, { filter: { kind: 'x' }, limit: 0 })).total,
      ];
      expect(await totals()).toEqual([2, 2, 2]);
      await store.write([put({ id: 'd', kind: 'x' }, 4n)]);
      expect(await totals()).toEqual([3, 3, 3]);
      const other = await adapter.another();
      try {
        await other.write([
          { kind: 'delete', collection, id: 'a', position: 5n },
          { kind: 'delete', collection, id: 'b', position: 5n },
        ]);
        expect(await totals()).toEqual([1, 1, 1]);
        await other.write([{ kind: 'put', collection, doc: { id: 'c', kind: 'x' }, position: 6n }]);
        expect(await totals()).toEqual([2, 2, 2]);
        await other.dropCollection(collection);
        expect(await totals()).toEqual([0, 0, 0]);
      } finally {
        await other.close();
      }
    });

    it('answers every read with what this and another connection wrote, as soon as the write has returned', async () => {
      await store.ensureCollection(collection, [{ fields: [['kind', 1]] }]);
      await fill([
        { id: 'a', kind: 'x', n: 1 },
        { id: 'b', kind: 'x', n: 1 },
      ]);
      // a frozen list of ids, as a cached document holds (a caching adapter may keep what it found for it)
      const ids = Object.freeze(['a', 'b', 'c']);
      const snapshot = async () => ({
        a: await store.get(collection, 'a'),
        stored: (await store.getStored(collection, 'b'))?.position ?? null,
        many: (await store.getMany(collection, ids)).map((d) => `${d.id}${String(d.n)}`),
        listed: (await store.find(collection, { filter: { kind: 'x' }, sort: [['n', 1]], limit: 10 })).items.map(
          (d) => `${d.id}${String(d.n)}`,
        ),
      });
      // read everything twice (a caching adapter now holds it), then change it from both connections
      await snapshot();
      expect(await snapshot()).toEqual({
        a: { id: 'a', kind: 'x', n: 1 },
        stored: 2n,
        many: ['a1', 'b1'],
        listed: ['a1', 'b1'],
      });
      await store.write([put({ id: 'a', kind: 'x', n: 2 }, 3n)]);
      expect(await snapshot()).toEqual({
        a: { id: 'a', kind: 'x', n: 2 },
        stored: 2n,
        many: ['a2', 'b1'],
        listed: ['b1', 'a2'],
      });
      const other = await adapter.another();
      try {
        expect(await other.get(collection, 'c')).toBeNull();
        await other.write([
          { kind: 'put', collection, doc: { id: 'b', kind: 'x', n: 3 }, position: 4n },
          { kind: 'put', collection, doc: { id: 'c', kind: 'x', n: 0 }, position: 4n },
          { kind: 'delete', collection, id: 'a', position: 4n },
        ]);
        expect(await snapshot()).toEqual({ a: null, stored: 4n, many: ['b3', 'c0'], listed: ['c0', 'b3'] });
        expect(await other.get(collection, 'c')).toEqual({ id: 'c', kind: 'x', n: 0 });
        await store.write([{ kind: 'delete', collection, id: 'c', position: 5n }]);
        expect(await other.get(collection, 'c')).toBeNull();
        await other.dropCollection(collection);
        expect(await snapshot()).toEqual({ a: null, stored: null, many: [], listed: [] });
      } finally {
        await other.close();
      }
    });

    it('moves its generation (when it has one) with every write of this or another connection, and only then', async () => {
      const generation = store.generation();
      if (generation === undefined) return; // an adapter that cannot tell keeps nothing by it
      await fill([{ id: 'a', n: 1 }]);
      const afterWrite = store.generation()!;
      expect(afterWrite).not.toBe(generation);
      await store.get(collection, 'a');
      await store.find(collection, { limit: 10 });
      await store.write([], [{ name: `cp_${collection}`, position: 1n }]);
      expect(store.generation()).toBe(afterWrite); // reads and a checkpoint change no document
      const other = await adapter.another();
      try {
        await other.write([{ kind: 'put', collection, doc: { id: 'b', n: 2 }, position: 2n }]);
        // the check of other connections' commits is made once per turn of the event loop
        await new Promise((resolve) => setImmediate(resolve));
        expect(store.generation()).not.toBe(afterWrite);
      } finally {
        await other.close();
      }
    });

    it('lists a page again with what this connection added to it, changed on it or deleted from it, the others unchanged', async () => {
      await store.ensureCollection(collection, [{ fields: [['kind', 1]] }]);
      await fill([
        { id: 'b', kind: 'x' },
        { id: 'c', kind: 'x' },
        { id: 'd', kind: 'x' },
      ]);
      const page = async () =>
        (await store.find(collection, { filter: { kind: 'x' }, limit: 2 })).items.map((d) => d.id);
      expect(await page()).toEqual(['b', 'c']);
      expect(await page()).toEqual(['b', 'c']);
      await store.write([put({ id: 'a', kind: 'x' }, 4n)]);
      expect(await page()).toEqual(['a', 'b']);
      await store.write([{ kind: 'delete', collection, id: 'a', position: 5n }]);
      expect(await page()).toEqual(['b', 'c']);
      await store.write([{ kind: 'delete', collection, id: 'b', position: 6n }]);
      expect(await page()).toEqual(['c', 'd']);
      // a page read twice (the second time a caching adapter answers from what it kept) shows a changed document
      const docs = async () => (await store.find(collection, { filter: { kind: 'x' }, limit: 2 })).items;
      expect(await docs()).toEqual([
        { id: 'c', kind: 'x' },
        { id: 'd', kind: 'x' },
      ]);
      await store.write([put({ id: 'd', kind: 'x', n: 2 }, 7n)]);
      for (let read = 0; read < 2; read++) {
        expect(await docs()).toEqual([
          { id: 'c', kind: 'x' },
          { id: 'd', kind: 'x', n: 2 },
        ]);
      }
    });

    it('forgets that a document was missing once this connection writes it', async () => {
      await store.ensureCollection(collection, []);
      expect(await store.getMany(collection, ['late'])).toEqual([]);
      expect(await store.get(collection, 'late')).toBeNull();
      await store.write([put({ id: 'late', kind: 'x', n: 1 }, 1n)]);
      expect(await store.getMany(collection, ['late'])).toEqual([{ id: 'late', kind: 'x', n: 1 }]);
      expect(await store.get(collection, 'late')).toEqual({ id: 'late', kind: 'x', n: 1 });
    });

    it('replaces a collection with another one, indexes and positions included', async () => {
      const aside = `${collection}_aside`;
      await store.ensureCollection(collection, [{ fields: [['kind', 1]] }]);
      await store.ensureCollection(aside, [{ fields: [['kind', 1]] }]);
      await fill([
        { id: 'old1', kind: 'x' },
        { id: 'old2', kind: 'x' },
      ]);
      expect(await store.count(collection, { kind: 'x' })).toBe(2);
      await store.write([
        { kind: 'put', collection: aside, doc: { id: 'new1', kind: 'x' }, position: 7n },
        { kind: 'put', collection: aside, doc: { id: 'new2', kind: 'y' }, position: 9n },
      ]);
      await store.replaceCollection(collection, aside);
      expect((await store.find(collection, { filter: { kind: 'x' }, limit: 10 })).items).toEqual([
        { id: 'new1', kind: 'x' },
      ]);
      expect(await store.count(collection, { kind: 'x' })).toBe(1);
      expect(await store.getStored(collection, 'new2')).toEqual({ doc: { id: 'new2', kind: 'y' }, position: 9n });
      expect(await store.get(collection, 'old1')).toBeNull();
      expect(await store.count(aside)).toBe(0);
      // the replaced collection takes writes as before
      await store.write([put({ id: 'later', kind: 'x' }, 10n)]);
      expect(await store.count(collection, { kind: 'x' })).toBe(2);
      // replacing with a collection nothing was written to empties the target
      await store.replaceCollection(collection, `${collection}_never`);
      expect(await store.count(collection)).toBe(0);
      await expect(store.replaceCollection(collection, collection)).rejects.toThrow(/itself/);
    });

    it('gets many documents in the order asked, skipping missing ones', async () => {
      await fill([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
      expect((await store.getMany(collection, ['c', 'x', 'a', 'b'])).map((d) => d.id)).toEqual(['c', 'a', 'b']);
      expect(await store.getMany(collection, [])).toEqual([]);
    });

    it('filters on the values an array field holds ($has)', async () => {
      await fill([
        { id: '1', tags: ['a', 'b'], n: [1, 2] },
        { id: '2', tags: ['b'], n: [3] },
        { id: '3', tags: 'a' },
        { id: '4' },
      ]);
      const ids = async (filter: Filter) =>
        (await store.find(collection, { filter, limit: 100, sort: [] })).items.map((d) => d.id).sort();
      expect(await ids({ tags: { $has: 'a' } })).toEqual(['1']);
      expect(await ids({ tags: { $has: 'b' } })).toEqual(['1', '2']);
      expect(await ids({ tags: { $has: 'c' } })).toEqual([]);
      expect(await ids({ n: { $has: 3 } })).toEqual(['2']);
      expect(await ids({ tags: { $has: 'b' }, n: { $has: 1 } })).toEqual(['1']);
      expect(await store.count(collection, { tags: { $has: 'b' } })).toBe(2);
    });

    it('filters by equality, null (missing too), booleans, operators, dotted fields and $or', async () => {
      await fill([
        { id: '1', role: 'admin', age: 30, active: true, org: { plan: 'free' }, name: 'Ada Lovelace' },
        { id: '2', role: 'read', age: 25, active: false, org: { plan: 'pro' }, name: 'Bob 100%_sure' },
        { id: '3', role: null, age: 40, active: true, name: 'Carol' },
        { id: '4', age: 35, name: 'Dave' },
      ]);
      const ids = async (filter: Filter) =>
        (await store.find(collection, { filter, limit: 100, sort: [] })).items.map((d) => d.id).sort();
      expect(await ids({ role: 'admin' })).toEqual(['1']);
      expect(await ids({ role: null })).toEqual(['3', '4']);
      expect(await ids({ active: true })).toEqual(['1', '3']);
      expect(await ids({ active: false })).toEqual(['2']);
      expect(await ids({ age: 25 })).toEqual(['2']);
      expect(await ids({ role: { $in: ['admin', 'read'] } })).toEqual(['1', '2']);
      expect(await ids({ role: { $in: [] } })).toEqual([]);
      expect(await ids({ role: { $ne: 'admin' } })).toEqual(['2', '3', '4']);
      expect(await ids({ role: { $ne: null } })).toEqual(['1', '2']);
      expect(await ids({ role: { $exists: true } })).toEqual(['1', '2', '3']);
      expect(await ids({ role: { $exists: false } })).toEqual(['4']);
      expect(await ids({ age: { $gt: 30 } })).toEqual(['3', '4']);
      expect(await ids({ age: { $gte: 30, $lt: 40 } })).toEqual(['1', '4']);
      expect(await ids({ age: { $lte: 25 } })).toEqual(['2']);
      expect(await ids({ name: { $contains: 'LOVE' } })).toEqual(['1']);
      expect(await ids({ name: { $contains: '%_' } })).toEqual(['2']);
      expect(await ids({ name: { $contains: '_' } })).toEqual(['2']);
      expect(await ids({ 'org.plan': 'pro' })).toEqual(['2']);
      expect(await ids({ $or: [{ role: 'admin' }, { age: { $gt: 36 } }] })).toEqual(['1', '3']);
      expect(await ids({ $or: [] })).toEqual([]);
      expect(await ids({ active: { $ne: true } })).toEqual(['2', '4']);
      expect(await ids({ active: { $in: [false] } })).toEqual(['2']);
      expect(await ids({ age: { $in: [25, 40, 99] } })).toEqual(['2', '3']);
      expect(await ids({ age: { $ne: 30 } })).toEqual(['2', '3', '4']);
      expect(await ids({ 'org.plan': null })).toEqual(['3', '4']);
      expect(await ids({ 'org.plan': { $ne: 'free' } })).toEqual(['2', '3', '4']);
      expect(await ids({ 'org.plan': { $exists: true } })).toEqual(['1', '2']);
      expect(await ids({ org: { $exists: false } })).toEqual(['3', '4']);
      expect(await ids({ name: { $contains: '%' } })).toEqual(['2']);
      expect(await ids({ name: { $contains: 'a%' } })).toEqual([]);
      expect(await ids({ name: { $contains: '.*' } })).toEqual([]);
      expect(await ids({ name: { $contains: 'a' } })).toEqual(['1', '3', '4']);
      expect(await ids({ role: { $contains: 'DM' } })).toEqual(['1']);
      expect(await ids({ name: { $gte: 'B', $lt: 'D' } })).toEqual(['2', '3']);
      expect(await ids({ id: '3' })).toEqual(['3']);
      expect(await ids({ id: { $in: ['1', '4', 'x'] } })).toEqual(['1', '4']);
      expect(await ids({ age: { $gt: 20 }, role: { $exists: true, $ne: null } })).toEqual(['1', '2']);
      expect(await ids({ $or: [{ $or: [{ age: 25 }, { age: 35 }] }, { role: 'admin', active: true }] })).toEqual([
        '1',
        '2',
        '4',
      ]);
      expect(await ids({})).toEqual(['1', '2', '3', '4']);
      expect(await ids({ active: true, $or: [{ role: null }, { age: 30 }] })).toEqual(['1', '3']);
      expect(await store.count(collection, { active: true })).toBe(2);
      expect(await store.count(collection)).toBe(4);
    });

    it('sorts on several fields in both directions with ties broken by id', async () => {
      await fill([
        { id: 'd', group: 'x', rank: 2 },
        { id: 'a', group: 'y', rank: 1 },
        { id: 'c', group: 'x', rank: 2 },
        { id: 'b', group: 'x', rank: 3 },
      ]);
      const order = async (sort: SortSpec) =>
        (await store.find(collection, { sort, limit: 10 })).items.map((d) => d.id);
      expect(
        await order([
          ['group', 1],
          ['rank', -1],
        ]),
      ).toEqual(['b', 'c', 'd', 'a']);
      expect(await order([['rank', 1]])).toEqual(['a', 'c', 'd', 'b']);
      expect(await order([])).toEqual(['a', 'b', 'c', 'd']);
      expect(
        await order([
          ['rank', -1],
          ['group', -1],
        ]),
      ).toEqual(['b', 'c', 'd', 'a']);
      expect(await order([['id', -1]])).toEqual(['d', 'c', 'b', 'a']);
    });

    it('sorts on dotted fields, nulls and missing fields first ascending and last descending', async () => {
      await fill([
        { id: 'a', meta: { at: '2024-03-01' } },
        { id: 'b', meta: { at: null } },
        { id: 'c', meta: { at: '2024-01-01' } },
        { id: 'd' },
        { id: 'e', meta: { at: '2024-02-01' } },
      ]);
      const order = async (sort: SortSpec) =>
        (await store.find(collection, { sort, limit: 10 })).items.map((d) => d.id);
      expect(await order([['meta.at', 1]])).toEqual(['b', 'd', 'c', 'e', 'a']);
      expect(await order([['meta.at', -1]])).toEqual(['a', 'e', 'c', 'b', 'd']);
      expect(await pageThrough(undefined, [['meta.at', -1]], 1)).toEqual(['a', 'e', 'c', 'b', 'd']);
      expect(await pageThrough(undefined, [['meta.at', 1]], 2)).toEqual(['b', 'd', 'c', 'e', 'a']);
    });

    it('pages through 250 documents visiting each exactly once, in order, with nulls and both directions', async () => {
      const docs: Doc[] = Array.from({ length: 250 }, (_, i) => ({
        id: `doc-${String(i).padStart(3, '0')}`,
        score: i % 7 === 0 ? null : i % 13,
        label: `L${i % 5}`,
        ...(i % 11 === 0 ? {} : { flag: i % 2 === 0 }),
      }));
      await store.ensureCollection(collection, [
        {
          fields: [
            ['score', 1],
            ['label', -1],
          ],
        },
      ]);
      await fill(docs);
      /** The order the port defines: nulls (and missing fields) smallest, false < true, ties by id ascending. */
      const expected = (sort: SortSpec) =>
        [...docs]
          .sort((x, y) => {
            for (const [field, direction] of sort) {
              const a = x[field] ?? null;
              const b = y[field] ?? null;
              if (a === b) continue;
              const smaller = a === null ? true : b === null ? false : (a as number | string) < (b as number | string);
              return smaller ? -direction : direction;
            }
            return x.id < y.id ? -1 : 1;
          })
          .map((d) => d.id);
      for (const sort of [
        [['score', 1]],
        [['score', -1]],
        [
          ['score', -1],
          ['label', 1],
        ],
        [
          ['label', 1],
          ['score', 1],
        ],
        [['flag', -1]],
      ] as SortSpec[]) {
        const all = (await store.find(collection, { sort, limit: 1000 })).items.map((d) => d.id);
        expect(all).toEqual(expected(sort));
        expect(await pageThrough(undefined, sort, 7)).toEqual(all);
        expect(new Set(all).size).toBe(250);
      }
      expect(await pageThrough(undefined, [], 7)).toEqual(docs.map((d) => d.id));
      const filtered = (
        await store.find(collection, { filter: { label: 'L1' }, sort: [['score', -1]], limit: 1000 })
      ).items.map((d) => d.id);
      expect(await pageThrough({ label: 'L1' }, [['score', -1]], 4)).toEqual(filtered);
    });

    it('counts the total matching a filter, ignoring cursor and limit; limit 0 returns only the count', async () => {
      await fill(Array.from({ length: 12 }, (_, i) => ({ id: `d${i}`, even: i % 2 === 0 })));
      const first = await store.find(collection, { filter: { even: true }, sort: [], limit: 4 });
      expect(first.total).toBe(6);
      expect(first.items).toHaveLength(4);
      const second = await store.find(collection, { filter: { even: true }, sort: [], limit: 4, after: first.next });
      expect(second).toMatchObject({ total: 6 });
      expect(second.items).toHaveLength(2);
      expect(second.next).toBeUndefined();
      const none = await store.find(collection, { sort: [], limit: 0 });
      expect(none.items).toEqual([]);
      expect(none.total).toBe(12);
      expect(none.next).toBeUndefined();
    });

    it('writes documents and checkpoints together, and refuses a batch with a bad collection as a whole', async () => {
      await store.write(
        [put({ id: 'a' })],
        [{ name: `cp-${collection}`, position: 5n, state: { version: 2, parked: [] } }],
      );
      expect(await store.getCheckpoint(`cp-${collection}`)).toEqual({
        name: `cp-${collection}`,
        position: 5n,
        state: { version: 2, parked: [] },
      });
      await expect(
        store.write(
          [put({ id: 'b' }), { kind: 'put', collection: 'Not A Name!', doc: { id: 'x' }, position: 6n }],
          [{ name: `cp-${collection}`, position: 6n }],
        ),
      ).rejects.toThrow();
      expect(await store.get(collection, 'b')).toBeNull();
      expect((await store.getCheckpoint(`cp-${collection}`))?.position).toBe(5n);
    });

    it('enforces unique indexes, refusing the whole write, and ignores documents without the field', async () => {
      await store.ensureCollection(collection, [
        { fields: [['email', 1]], unique: true },
        {
          fields: [
            ['org', 1],
            ['slug', 1],
          ],
          unique: true,
        },
      ]);
      await store.write([put({ id: 'a', email: 'a@example.com', org: 'o1', slug: 's' })]);
      await expect(
        store.write([put({ id: 'c', email: 'c@example.com' }), put({ id: 'b', email: 'a@example.com' })]),
      ).rejects.toThrow();
      if (atomic) expect(await store.get(collection, 'c')).toBeNull();
      expect(await store.get(collection, 'b')).toBeNull();
      await expect(store.write([put({ id: 'd', org: 'o1', slug: 's' })])).rejects.toThrow();
      await store.write([put({ id: 'e', org: 'o2', slug: 's' }), put({ id: 'f', org: 'o1', slug: 't' })]);
      // several documents may lack a uniquely indexed field
      await store.write([put({ id: 'g' }), put({ id: 'h' })]);
      // replacing a document keeps its own value
      await store.write([put({ id: 'a', email: 'a@example.com', org: 'o1', slug: 's', name: 'Ada' })]);
      expect(await store.get(collection, 'a')).toMatchObject({ name: 'Ada' });
      // idempotent
      await store.ensureCollection(collection, [{ fields: [['email', 1]], unique: true }]);
      // dropping the documents keeps the indexes
      await store.dropCollection(collection);
      await store.write([put({ id: 'x', email: 'x@example.com' })]);
      await expect(store.write([put({ id: 'y', email: 'x@example.com' })])).rejects.toThrow();
      expect(await store.count(collection)).toBe(1);
    });

    it('refuses invalid collection and field names', async () => {
      await expect(store.ensureCollection('Bad-Name', [])).rejects.toThrow(/collection/);
      await expect(store.get('1abc', 'a')).rejects.toThrow(/collection/);
      await expect(store.find('x; DROP TABLE y', { limit: 1 })).rejects.toThrow(/collection/);
      await expect(store.find(collection, { filter: { "a') OR 1=1 --": 1 }, limit: 1 })).rejects.toThrow(/field/);
      await expect(store.find(collection, { sort: [['$where', 1]], limit: 1 })).rejects.toThrow(/field/);
      await expect(store.ensureCollection(collection, [{ fields: [['a b', 1]] }])).rejects.toThrow(/field/);
    });

    it('lists and deletes checkpoints, keeping positions exact', async () => {
      const names = [`${collection}-x`, `${collection}-y`];
      await store.write(
        [],
        [
          { name: names[1], position: -1n },
          { name: names[0], position: 2n ** 65n },
        ],
      );
      const listed = (await store.listCheckpoints()).filter((c) => names.includes(c.name));
      expect(listed).toEqual([
        { name: names[0], position: 2n ** 65n },
        { name: names[1], position: -1n },
      ]);
      await store.deleteCheckpoint(names[0]);
      expect(await store.getCheckpoint(names[0])).toBeNull();
    });

    it('drops a collection, and reads of unknown collections find nothing', async () => {
      await fill([{ id: 'a' }, { id: 'b' }]);
      await store.dropCollection(collection);
      expect(await store.count(collection)).toBe(0);
      expect(await store.get(collection, 'a')).toBeNull();
      await store.write([put({ id: 'c' })]);
      expect((await store.find(collection, { limit: 5 })).items).toEqual([{ id: 'c' }]);
      expect(await store.get('never_written', 'a')).toBeNull();
      expect(await store.getStored('never_written', 'a')).toBeNull();
      expect(await store.getMany('never_written', ['a', 'b'])).toEqual([]);
      expect(await store.count('never_written', { a: 1 })).toBe(0);
      expect(await store.find('never_written', { limit: 5 })).toEqual({ items: [], total: 0 });
      await store.ping();
    });
  });
}

let dir: string;
contract('SQLite read store', {
  async open() {
    dir = mkdtempSync(join(tmpdir(), 'quire-read-'));
    // as the service opens it: the write-ahead log checkpointed by a worker thread
    return new SqliteReadStore({ file: join(dir, 'read.sqlite'), backgroundCheckpoints: true });
  },
  async another() {
    return new SqliteReadStore({ file: join(dir, 'read.sqlite') });
  },
  async close() {
    rmSync(dir, { recursive: true, force: true });
  },
  atomic: async () => true,
});

describe('SQLite read store files', () => {
  it('are created with their folder by createReadStore, and keep documents across reopening', async () => {
    const root = mkdtempSync(join(tmpdir(), 'quire-read-'));
    try {
      const file = join(root, 'nested', 'deeper', 'read.sqlite');
      const first = await createReadStore({ driver: 'sqlite', file });
      await first.ensureCollection('spaces', [{ fields: [['title', 1]] }]);
      await first.write(
        [{ kind: 'put', collection: 'spaces', doc: { id: 's1', title: 'Docs' }, position: 3n }],
        [{ name: 'spaces', position: 3n }],
      );
      await first.close();
      const second = await createReadStore({ driver: 'sqlite', file });
      expect(await second.getStored('spaces', 's1')).toEqual({ doc: { id: 's1', title: 'Docs' }, position: 3n });
      expect(await second.getCheckpoint('spaces')).toEqual({ name: 'spaces', position: 3n });
      await second.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('have their write-ahead log copied into the database file from a worker when asked to', async () => {
    const root = mkdtempSync(join(tmpdir(), 'quire-read-'));
    const grows = async (backgroundCheckpoints: boolean) => {
      const file = join(root, `read-${String(backgroundCheckpoints)}.sqlite`);
      const store = await createReadStore({ driver: 'sqlite', file, backgroundCheckpoints });
      try {
        await store.ensureCollection('spaces', []);
        const before = statSync(file).size;
        // about 100 pages: far below SQLite's own checkpoint threshold of 1,000
        for (let i = 0; i < 50; i++) {
          const doc = { id: `s${i}`, text: 'x'.repeat(8000) };
          await store.write([{ kind: 'put', collection: 'spaces', doc, position: BigInt(i + 1) }], []);
        }
        // the worker checkpoints every 200 ms; without it nothing is copied however long one waits
        const until = Date.now() + (backgroundCheckpoints ? 3000 : 800);
        while (statSync(file).size === before && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        return statSync(file).size > before;
      } finally {
        await store.close();
      }
    };
    try {
      expect(await grows(true)).toBe(true);
      expect(await grows(false)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('are private to this user: the database and its WAL files 0600, a folder it creates 0700', async () => {
    const root = mkdtempSync(join(tmpdir(), 'quire-read-'));
    try {
      const folder = join(root, 'private');
      const store = await createReadStore({ driver: 'sqlite', file: join(folder, 'read.sqlite') });
      await store.ensureCollection('spaces', [{ fields: [['title', 1]] }]);
      await store.write([{ kind: 'put', collection: 'spaces', doc: { id: 's1' }, position: 1n }], []);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      for (const name of ['read.sqlite', 'read.sqlite-wal', 'read.sqlite-shm']) {
        expect({ name, mode: statSync(join(folder, name)).mode & 0o777 }).toEqual({ name, mode: 0o600 });
      }
      await store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('SQLite read store shared with another process', () => {
  it('never answers from what this process read before another process changed it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'quire-read-'));
    const file = join(root, 'read.sqlite');
    const store = new SqliteReadStore({ file });
    try {
      await store.ensureCollection('tokens', [{ fields: [['user', 1]] }]);
      await store.write([
        { kind: 'put', collection: 'tokens', doc: { id: 't1', user: 'u1', revoked: false }, position: 1n },
        { kind: 'put', collection: 'tokens', doc: { id: 't2', user: 'u1', revoked: false }, position: 1n },
      ]);
      const state = async () => ({
        t1: (await store.get('tokens', 't1'))?.revoked,
        listed: (await store.find('tokens', { filter: { user: 'u1' }, limit: 10 })).items.map((d) => d.revoked),
      });
      // the same reads a request makes, twice: the second time a caching adapter answers from memory
      expect(await state()).toEqual({ t1: false, listed: [false, false] });
      expect(await state()).toEqual({ t1: false, listed: [false, false] });
      for (let round = 1; round <= 3; round++) {
        const revoked = round % 2 === 1;
        await writeFromAnotherProcess(file, [
          { kind: 'put', collection: 'tokens', doc: { id: 't1', user: 'u1', revoked }, position: 1 + round },
          { kind: 'put', collection: 'tokens', doc: { id: 't2', user: 'u1', revoked }, position: 1 + round },
        ]);
        expect(await state()).toEqual({ t1: revoked, listed: [revoked, revoked] });
      }
      // a page whose listing was read before gains what the other process adds to it, and loses what it deletes
      const ids = async () => (await store.find('tokens', { filter: { user: 'u1' }, limit: 2 })).items.map((d) => d.id);
      expect(await ids()).toEqual(['t1', 't2']);
      await writeFromAnotherProcess(file, [
        { kind: 'put', collection: 'tokens', doc: { id: 't0', user: 'u1', revoked: false }, position: 5 },
      ]);
      expect(await ids()).toEqual(['t0', 't1']);
      await writeFromAnotherProcess(file, [{ kind: 'delete', collection: 'tokens', id: 't1', position: 6 }]);
      expect(await ids()).toEqual(['t0', 't2']);
      // and its generation moves with the other process's commit
      const generation = store.generation();
      await writeFromAnotherProcess(file, [{ kind: 'delete', collection: 'tokens', id: 't2', position: 7 }]);
      expect(store.generation()).not.toBe(generation);
    } finally {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('hands out documents that cannot be changed by one reader behind the others', async () => {
    const store = new SqliteReadStore({ file: ':memory:' });
    try {
      await store.write([{ kind: 'put', collection: 'docs', doc: { id: 'd', list: [{ n: 1 }] }, position: 1n }]);
      const doc = (await store.get('docs', 'd')) as unknown as { list: { n: number }[] };
      expect(() => {
        doc.list[0].n = 2;
      }).toThrow(TypeError);
      expect(await store.get('docs', 'd')).toEqual({ id: 'd', list: [{ n: 1 }] });
    } finally {
      await store.close();
    }
  });
});

describe('MongoDB read store URL', () => {
  it('names the database from the URL path, quire by default', () => {
    expect(databaseNameOf('mongodb://localhost:27017/quire_test')).toBe('quire_test');
    expect(databaseNameOf('mongodb://u:p@a:1,b:2/reads?replicaSet=rs0')).toBe('reads');
    expect(databaseNameOf('mongodb://localhost:27017')).toBe('quire');
    expect(databaseNameOf('mongodb://localhost:27017/?replicaSet=rs0')).toBe('quire');
    expect(databaseNameOf('mongodb+srv://cluster.example.net/prod')).toBe('prod');
  });
});

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  contract('MongoDB read store', {
    async open() {
      const store = new MongoReadStore({ url: mongoUrl });
      await store.ping();
      return store;
    },
    async another() {
      const store = new MongoReadStore({ url: mongoUrl });
      await store.ping();
      return store;
    },
    atomic: (store) => (store as MongoReadStore).supportsTransactions(),
  });
} else {
  describe.skip('MongoDB read store (skipped: MONGODB_URL is not set; no MongoDB server can run here)', () => {
    it('passes the same contract when MONGODB_URL points at a server', () => undefined);
  });
}
