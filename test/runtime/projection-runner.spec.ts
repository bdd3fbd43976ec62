import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type EventStore,
  type Projection,
  ProjectionRunner,
  type ReadStore,
  START,
  TimedOut,
  newEventId,
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

  const runner = (projections: Projection[]) => {
    const created = new ProjectionRunner(events, reads, projections, { backoffMs: 1, maxAttempts: 2, batchSize: 50 });
    runners.push(created);
    return created;
  };

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
