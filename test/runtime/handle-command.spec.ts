import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Command,
  type Decider,
  DomainError,
  type DomainEvent,
  type EventStore,
  PreconditionFailed,
  handleCommand,
  newEventId,
} from '@app/kernel';
import { createEventStore } from '@app/event-store';

type TallyCommand = Command<'Add' | 'Refuse' | 'Nothing', { n: number }>;
type Added = DomainEvent<'Added', { n: number }>;
interface Tally {
  total: number;
  seen: number[];
}

/** Adds numbers; refuses on request, and decides nothing for `Nothing`. */
const tally: Decider<Tally, TallyCommand, Added> = {
  initialState: () => ({ total: 0, seen: [] }),
  decide(command) {
    if (command.type === 'Refuse') throw new DomainError('validation', `refused ${command.data.n}`);
    if (command.type === 'Nothing') return [];
    return [{ type: 'Added', data: { n: command.data.n } }];
  },
  evolve: (state, event) => ({ total: state.total + event.data.n, seen: [...state.seen, event.data.n] }),
};
/** The same events, folded by another decider. */
const counter: Decider<number, TallyCommand, Added> = {
  initialState: () => 0,
  decide: (command) => [{ type: 'Added', data: { n: command.data.n } }],
  evolve: (state) => state + 1,
};

const command = (type: TallyCommand['type'], n: number, commandId?: string): TallyCommand => ({
  type,
  data: { n },
  metadata: { now: '2026-11-27T00:00:00.000Z', actor: `user-${n}`, ...(commandId ? { commandId } : {}) },
});

describe('handleCommand: commands waiting for one stream share an append', () => {
  let dir: string;
  let store: EventStore;
  let appends: number[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-handle-'));
    store = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    appends = [];
    const append = store.append.bind(store);
    store.append = (streamId, events, expected) => {
      appends.push(events.length);
      return append(streamId, events, expected);
    };
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const streamOf = async (streamId: string) =>
    (await store.readStream(streamId)).map((event) => ({ n: event.data.n, user: event.metadata.userId }));

  it('decides each command on the state its predecessors left and appends them together, in order', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => handleCommand(store, tally, 's', command('Add', n))));
    expect(appends).toEqual([4]);
    expect(results.map((result) => result.revision)).toEqual([0, 1, 2, 3]);
    expect(results.map((result) => result.state.total)).toEqual([1, 3, 6, 10]);
    expect(results[3].state.seen).toEqual([1, 2, 3, 4]);
    expect(new Set(results.map((result) => result.position)).size).toBe(1);
    expect(results[0].position).not.toBeNull();
    // each event carries its own command's metadata
    expect(await streamOf('s')).toEqual([1, 2, 3, 4].map((n) => ({ n, user: `user-${n}` })));
  });

  it('groups the commands that wait while the stream is busy', async () => {
    const first = handleCommand(store, tally, 's', command('Add', 1));
    await Promise.resolve();
    await Promise.resolve();
    const rest = [2, 3, 4].map((n) => handleCommand(store, tally, 's', command('Add', n)));
    await Promise.all([first, ...rest]);
    expect(appends.reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(appends.length).toBeLessThan(4);
    expect((await handleCommand(store, tally, 's', command('Add', 5))).state.seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('fails a refused command alone; the others go on as if it had not been sent', async () => {
    const sent = [command('Add', 1), command('Refuse', 2), command('Nothing', 3), command('Add', 4)].map((c) =>
      handleCommand(store, tally, 's', c),
    );
    const settled = await Promise.allSettled(sent);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toEqual(expect.objectContaining({ message: 'refused 2' }));
    const nothing = (settled[2] as PromiseFulfilledResult<Awaited<(typeof sent)[number]>>).value;
    expect(nothing).toEqual(expect.objectContaining({ events: [], revision: 0, position: null }));
    const last = (settled[3] as PromiseFulfilledResult<Awaited<(typeof sent)[number]>>).value;
    expect(last.revision).toBe(1);
    expect(last.state.seen).toEqual([1, 4]);
    expect(appends).toEqual([2]);
  });

  it('checks If-Match against the revision the commands before it in the group left', async () => {
    await handleCommand(store, tally, 's', command('Add', 1));
    const [a, b, c] = await Promise.allSettled([
      handleCommand(store, tally, 's', command('Add', 2), { ifMatch: 0 }),
      handleCommand(store, tally, 's', command('Add', 3), { ifMatch: 1 }),
      handleCommand(store, tally, 's', command('Add', 4), { ifMatch: 1 }),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b.status).toBe('fulfilled');
    expect((c as PromiseRejectedResult).reason).toBeInstanceOf(PreconditionFailed);
    expect((await streamOf('s')).map((event) => event.n)).toEqual([1, 2, 3]);
  });

  it('decides the group again on fresh state when another writer got there first', async () => {
    await handleCommand(store, tally, 's', command('Add', 1));
    // another process appends between this process's fold and its append, once
    const append = store.append;
    let interfered = false;
    store.append = async (streamId, events, expected) => {
      if (!interfered) {
        interfered = true;
        const { nextRevision } = await append(
          's',
          [{ id: newEventId(), type: 'Added', data: { n: 100 }, metadata: {} }],
          0,
        );
        expect(nextRevision).toBe(1);
      }
      return append(streamId, events, expected);
    };
    const [plain, guarded] = await Promise.allSettled([
      handleCommand(store, tally, 's', command('Add', 2)),
      handleCommand(store, tally, 's', command('Add', 3), { ifMatch: 1 }),
    ]);
    expect((guarded as PromiseRejectedResult).reason).toBeInstanceOf(PreconditionFailed);
    const retried = (
      plain as PromiseFulfilledResult<Awaited<ReturnType<typeof handleCommand<Tally, TallyCommand, Added>>>>
    ).value;
    expect(retried.revision).toBe(2);
    expect(retried.state.seen).toEqual([1, 100, 2]);
    expect((await streamOf('s')).map((event) => event.n)).toEqual([1, 100, 2]);
  });

  it('gives up with a conflict after as many retries as allowed', async () => {
    const append = store.append;
    store.append = async (streamId, events, expected) => {
      await append('s', [{ id: newEventId(), type: 'Added', data: { n: 0 }, metadata: {} }], 'any');
      return append(streamId, events, expected);
    };
    await expect(handleCommand(store, tally, 's', command('Add', 1), { maxRetries: 2 })).rejects.toEqual(
      expect.objectContaining({ kind: 'conflict' }),
    );
    // the first attempt and two retries, each preceded by the other writer's event
    expect((await streamOf('s')).map((event) => event.n)).toEqual([0, 0, 0]);
  });

  it("appends a process's commands (which carry a command id) one by one, and a repeated one only once", async () => {
    const results = await Promise.all([
      handleCommand(store, tally, 's', command('Add', 1, 'process:a')),
      handleCommand(store, tally, 's', command('Add', 2, 'process:b')),
      handleCommand(store, tally, 's', command('Add', 1, 'process:a')),
    ]);
    expect(appends).toEqual([1, 1, 1]);
    expect(results.map((result) => result.revision)).toEqual([0, 1, 0]);
    expect((await streamOf('s')).map((event) => event.n)).toEqual([1, 2]);
  });

  it('keeps the order of commands of different deciders on one stream, grouping only neighbours', async () => {
    const results = await Promise.all([
      handleCommand(store, tally, 's', command('Add', 1)),
      handleCommand(store, tally, 's', command('Add', 2)),
      handleCommand(store, counter, 's', command('Add', 3)),
      handleCommand(store, tally, 's', command('Add', 4)),
    ]);
    expect(appends).toEqual([2, 1, 1]);
    expect(results.map((result) => result.revision)).toEqual([0, 1, 2, 3]);
    expect(results[2].state).toBe(3);
    expect((await streamOf('s')).map((event) => event.n)).toEqual([1, 2, 3, 4]);
  });

  it('runs commands on different streams independently', async () => {
    const results = await Promise.all([
      handleCommand(store, tally, 'a', command('Add', 1)),
      handleCommand(store, tally, 'b', command('Add', 2)),
      handleCommand(store, tally, 'a', command('Add', 3)),
    ]);
    expect(results.map((result) => result.revision)).toEqual([0, 0, 1]);
    expect(appends.sort()).toEqual([1, 2]);
  });
});
