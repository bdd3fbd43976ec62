import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Checkpoint,
  type EventStore,
  ManualClock,
  type Projection,
  ProjectionRunner,
  type ReadStore,
  START,
  type WriteOp,
  TimedOut,
  newEventId,
  requestProjectionRebuild,
} from '@app/kernel';
import { createEventStore } from '@app/event-store';
import { createReadStore } from '@app/read-store';

interface CounterDoc {
  id: string;
  count: number;
  [key: string]: unknown;
}

/** Counts `Ticked` events per counter: a redelivered event would show as a double count. */
const counters = (version = 1): Projection<CounterDoc> => ({
  name: 'counters',
  version,
  collection: 'counters',
  handles: ['Ticked'],
  idOf: (event) => String(event.data.counter),
  evolve: (doc, event) => ({ id: String(event.data.counter), count: (doc?.count ?? 0) + 1 }),
});

/** Fails on `Poison` events. */
const fragile: Projection<CounterDoc> = {
  name: 'fragile',
  version: 1,
  collection: 'fragile',
  handles: ['Ticked', 'Poison'],
  idOf: (event) => String(event.data.counter),
  evolve(doc, event) {
    if (event.type === 'Poison') throw new Error('cannot digest this');
    return { id: String(event.data.counter), count: (doc?.count ?? 0) + 1 };
  },
};

describe('projection runner', () => {
  let dir: string;
  let events: EventStore;
  let reads: ReadStore;
  const runners: ProjectionRunner[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-runner-'));
    events = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    reads = await createReadStore({ driver: 'sqlite', file: join(dir, 'read.sqlite') });
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runner = (projections: Projection[], log: string[] = []) => {
    const created = new ProjectionRunner(events, reads, projections, {
      backoffMs: 1,
      maxAttempts: 2,
      batchSize: 50,
      logger: { log: (m) => log.push(m), warn: (m) => log.push(m), error: (m) => log.push(m) },
    });
    runners.push(created);
    return created;
  };

  /** Polls until the expectation holds (a rebuild asked through the store starts when a lane reads the request). */
  async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  const tick = (counter: string, times = 1, type = 'Ticked') =>
    events.append(
      `counter-${counter}`,
      Array.from({ length: times }, () => ({ id: newEventId(), type, data: { counter } })),
      'any',
    );

  it('applies events, checkpoints them and lets writers wait for their position', async () => {
    const projections = runner([counters()]);
    await projections.start();
    await tick('a', 3);
    const { position } = await tick('b', 2);
    await projections.waitFor(position, ['counters']);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 3 });
    expect(await reads.get('counters', 'b')).toEqual({ id: 'b', count: 2 });
    const checkpoint = await reads.getCheckpoint('projection:counters');
    expect(checkpoint?.position).toBe(position);
    const [status] = await projections.status();
    expect(status).toMatchObject({ name: 'counters', lag: 0, parked: [], state: 'running' });
  });

  it('gives evolve a copy it may change: a document read before keeps its value', async () => {
    interface HistoryDoc {
      id: string;
      ticks: { n: number }[];
      [key: string]: unknown;
    }
    // changes the document it is given in place, nested array included
    const histories: Projection<HistoryDoc> = {
      name: 'histories',
      version: 1,
      collection: 'histories',
      handles: ['Ticked'],
      idOf: (event) => String(event.data.counter),
      evolve: (doc, event) => {
        const next = doc ?? { id: String(event.data.counter), ticks: [] };
        next.ticks.push({ n: next.ticks.length });
        return next;
      },
    };
    const projections = runner([histories]);
    await projections.start();
    await projections.waitFor((await tick('a', 2)).position);
    const before = await reads.get<HistoryDoc>('histories', 'a');
    await projections.waitFor((await tick('a', 3)).position);
    expect(before).toEqual({ id: 'a', ticks: [{ n: 0 }, { n: 1 }] });
    expect(await reads.get('histories', 'a')).toEqual({ id: 'a', ticks: [0, 1, 2, 3, 4].map((n) => ({ n })) });
  });

  it('writes the checkpoint of a projection no batch concerns a little later, and at stop', async () => {
    const other: Projection<CounterDoc> = { ...counters(), name: 'others', collection: 'others', handles: ['Tocked'] };
    const projections = runner([counters(), other]);
    await projections.start();
    const first = await tick('a');
    await projections.waitFor(first.position);
    const stored = async (name: string) => (await reads.getCheckpoint(`projection:${name}`))?.position;
    // the first batch writes both (neither had a checkpoint); the next ones only the projection they change
    expect(await stored('others')).toBe(first.position);
    const second = await tick('a');
    await projections.waitFor(second.position);
    expect(await stored('counters')).toBe(second.position);
    expect(await stored('others')).toBe(first.position);
    await eventually(async () => expect(await stored('others')).toBe(second.position), 3000);

    const third = await tick('a');
    await projections.waitFor(third.position);
    expect(await stored('others')).toBe(second.position);
    await projections.stop();
    expect(await stored('others')).toBe(third.position);
  });

  it('resumes from its checkpoint, and redelivered events change nothing', async () => {
    const first = runner([counters()]);
    await first.start();
    const { position } = await tick('a', 5);
    await first.waitFor(position);
    await first.stop();

    // Simulate a crash before the checkpoint was written: the runner starts again from the beginning.
    await reads.write([], [{ name: 'projection:counters', position: START, state: { version: 1, parked: [] } }]);
    const second = runner([counters()]);
    await second.start();
    const more = await tick('a', 1);
    await second.waitFor(more.position);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 6 });
  });

  it('parks a failing event with its error and goes on, without holding other projections back', async () => {
    const projections = runner([counters(), fragile]);
    await projections.start();
    await tick('a', 2);
    await tick('a', 1, 'Poison');
    const { position } = await tick('a', 2);
    await projections.waitFor(position);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 4 });
    expect(await reads.get('fragile', 'a')).toEqual({ id: 'a', count: 4 });
    const fragileStatus = (await projections.status()).find((s) => s.name === 'fragile')!;
    expect(fragileStatus.parked).toEqual([expect.objectContaining({ type: 'Poison', error: 'cannot digest this' })]);
    const counterStatus = (await projections.status()).find((s) => s.name === 'counters')!;
    expect(counterStatus.parked).toEqual([]);
    // the parked list survives a restart (it is kept with the checkpoint)
    await projections.stop();
    const again = runner([counters(), fragile]);
    await again.start();
    expect((await again.status()).find((s) => s.name === 'fragile')!.parked).toHaveLength(1);
  });

  it('rebuilds a projection from the start when its version changes', async () => {
    const v1 = runner([counters(1)]);
    await v1.start();
    const { position } = await tick('a', 3);
    await v1.waitFor(position);
    await v1.stop();
    // corrupt the read model: a rebuild must throw it away
    await reads.write([{ kind: 'put', collection: 'counters', doc: { id: 'a', count: 999 }, position }]);
    await reads.write([{ kind: 'put', collection: 'counters', doc: { id: 'ghost', count: 1 }, position }]);
    const v2 = runner([counters(2)]);
    await v2.start();
    await v2.catchUp();
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 3 });
    expect(await reads.get('counters', 'ghost')).toBeNull();
  });

  it('rebuilds one projection on demand while the others run on', async () => {
    const projections = runner([counters(), fragile]);
    await projections.start();
    const { position } = await tick('a', 4);
    await projections.waitFor(position);
    await reads.write([{ kind: 'delete', collection: 'counters', id: 'a', position }]);
    await projections.rebuild('counters');
    await projections.catchUp(['counters']);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 4 });
    const later = await tick('a', 1);
    await projections.waitFor(later.position);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 5 });
    expect(await reads.get('fragile', 'a')).toEqual({ id: 'a', count: 5 });
  });

  it('keeps the projection in service answering and current while it rebuilds aside', async () => {
    // the rebuild's writes wait at a gate, so the test sees the runner in the middle of it
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const gated = new Proxy(reads, {
      get(target, property) {
        if (property === 'write') {
          return async (ops: WriteOp[], checkpoints?: Checkpoint[]) => {
            if (ops.some((op) => op.collection === 'counters__rebuild')) await gate;
            return target.write(ops, checkpoints);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const projections = new ProjectionRunner(events, gated, [counters(), fragile], { batchSize: 50 });
    runners.push(projections);
    await projections.start();
    const { position } = await tick('a', 3);
    await projections.waitFor(position);
    await reads.write([{ kind: 'put', collection: 'counters', doc: { id: 'a', count: 999 }, position }]);

    const rebuilt = projections.rebuild('counters');
    await eventually(async () =>
      expect((await projections.status()).find((p) => p.name === 'counters')!.state).toBe('rebuilding'),
    );
    // the collection in service is still there (damaged as it was), and still follows new events
    const during = await tick('a');
    await projections.waitFor(during.position); // a write's wait does not wait for the rebuild
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 1000 });
    expect((await projections.status()).find((p) => p.name === 'counters')!.state).toBe('rebuilding');

    openGate();
    await rebuilt;
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 4 });
    expect(await reads.count('counters__rebuild')).toBe(0);
    const after = await tick('a');
    await projections.waitFor(after.position, ['counters']);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 5 });
    expect((await projections.status()).find((p) => p.name === 'counters')).toMatchObject({ state: 'running', lag: 0 });
  });

  it('rebuilds what an operator asks for through the event store, once, and leaves the rest alone', async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    const projections = runner([counters(), fragile], log);
    await projections.start();
    const { position } = await tick('a', 3);
    await projections.waitFor(position);
    const damage = (collection: string, count: number) =>
      reads.write([{ kind: 'put', collection, doc: { id: 'a', count }, position }]);
    await damage('counters', 999);
    await damage('fragile', 999);

    await requestProjectionRebuild(events, clock, ['counters'], 'test');
    await eventually(async () => expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 3 }));
    await projections.catchUp();
    expect(await reads.get('fragile', 'a')).toEqual({ id: 'a', count: 999 });
    const later = await tick('a');
    await projections.waitFor(later.position);
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 4 });
    expect(log.filter((m) => m.includes('rebuilding from the start'))).toEqual([
      'projection counters: rebuilding from the start',
    ]);

    // a restart does not meet the old request as a new one
    await projections.stop();
    await damage('counters', 777);
    const again = runner([counters(), fragile], log);
    await again.start();
    await again.catchUp();
    expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 777 });
    expect(log.filter((m) => m.includes('rebuilding from the start'))).toHaveLength(1);
  });

  it('carries out a rebuild asked for while it was stopped, for every projection when asked for all', async () => {
    const clock = new ManualClock();
    const first = runner([counters(), fragile]);
    await first.start();
    const { position } = await tick('a', 2);
    await first.waitFor(position);
    await first.stop();
    await reads.write([
      { kind: 'put', collection: 'counters', doc: { id: 'a', count: 50 }, position },
      { kind: 'put', collection: 'fragile', doc: { id: 'a', count: 60 }, position },
    ]);
    await requestProjectionRebuild(events, clock, 'all', 'test');
    const second = runner([counters(), fragile]);
    await second.start();
    await eventually(async () => {
      expect(await reads.get('counters', 'a')).toEqual({ id: 'a', count: 2 });
      expect(await reads.get('fragile', 'a')).toEqual({ id: 'a', count: 2 });
    });
    const status = await second.status();
    expect(status.every((s) => s.state !== 'stopped')).toBe(true);
  });

  it('resumes at the next start a rebuild that a crash interrupted, pending or running, and finishes it once', async () => {
    const clock = new ManualClock();
    for (const crashWhile of ['pending', 'running'] as const) {
      const id = `${crashWhile}-counter`; // the store keeps the first round's events: each round counts its own
      // A process that "crashes": from that moment none of its writes reach the store, as after a kill.
      let crashed = false;
      const neverOpens = new Promise<void>(() => undefined);
      const dying = new Proxy(reads, {
        get(target, property) {
          if (property === 'write') {
            return async (ops: WriteOp[], checkpoints?: Checkpoint[]) => {
              if (crashed) throw new Error('the process is gone');
              // a rebuild that gets under way stalls before its first write (it is running when the crash comes)
              if (ops.some((op) => op.collection === 'counters__rebuild')) await neverOpens;
              if (crashWhile === 'pending' && checkpoints?.some((c) => JSON.stringify(c.state).includes('"running"'))) {
                crashed = true; // the crash comes right after the checkpoint that recorded the request
                throw new Error('the process is gone');
              }
              return target.write(ops, checkpoints);
            };
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const log: string[] = [];
      const first = new ProjectionRunner(events, dying, [counters(), fragile], {
        batchSize: 50,
        backoffMs: 1,
        maxAttempts: 1,
        logger: { log: (m) => log.push(m), warn: () => undefined, error: () => undefined },
      });
      await first.start();
      const { position } = await tick(id, 2);
      await first.waitFor(position);
      await reads.write([{ kind: 'put', collection: 'counters', doc: { id, count: 70 }, position }]);
      const request = await requestProjectionRebuild(events, clock, ['counters'], 'test');
      await first.waitFor(request, ['fragile']); // the lane has read the request and moved its checkpoint past it
      const stored = async () =>
        ((await reads.getCheckpoint('projection:counters'))?.state as { rebuild?: { state: string } }).rebuild;
      await eventually(async () => expect((await stored())?.state).toBe('pending'));
      if (crashWhile === 'running') {
        await tick('b'); // the lane in service records the running rebuild with its next checkpoint
        await eventually(async () => expect((await stored())?.state).toBe('running'));
      }
      crashed = true;
      void first.stop(); // the stalled rebuild never ends: the dead runner is simply abandoned
      expect(await reads.get('counters', id)).toEqual({ id, count: 70 });

      const second = runner([counters(), fragile]);
      await second.start();
      await eventually(async () => expect(await reads.get('counters', id)).toEqual({ id, count: 2 }));
      await eventually(async () => {
        const status = (await second.status()).find((p) => p.name === 'counters')!;
        expect(status.state).toBe('running');
        expect(status.rebuild).toMatchObject({ state: 'done', position: request.toString() });
        expect(await stored()).toMatchObject({ state: 'done', position: request.toString() });
      });
      // done once: a third start does not rebuild again
      await second.stop();
      await reads.write([{ kind: 'put', collection: 'counters', doc: { id, count: 71 }, position: request }]);
      const thirdLog: string[] = [];
      const third = runner([counters(), fragile], thirdLog);
      await third.start();
      await third.catchUp();
      expect(await reads.get('counters', id)).toEqual({ id, count: 71 });
      expect(thirdLog.filter((m) => m.includes('rebuild'))).toEqual([]);
      await third.stop();
      await reads.dropCollection('counters');
      await reads.deleteCheckpoint('projection:counters');
      await reads.dropCollection('fragile');
      await reads.deleteCheckpoint('projection:fragile');
    }
  });

  it('times out a wait instead of answering stale data', async () => {
    const projections = runner([counters()]);
    await projections.start();
    const { position } = await tick('a', 1);
    await expect(projections.waitFor(position + 1_000_000n, ['counters'], 50)).rejects.toBeInstanceOf(TimedOut);
  });

  it('reports the lag of a stopped projection', async () => {
    await tick('a', 7);
    const projections = runner([counters()]);
    const [status] = await projections.status();
    expect(status).toMatchObject({ checkpoint: null, lag: 7, lagCapped: false, state: 'stopped' });
  });
});
