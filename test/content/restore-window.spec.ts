import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CommandDispatcher,
  type EventStore,
  type GlobalPosition,
  ManualClock,
  type ProcessDefinition,
  type ProcessRunner,
  type ReadStore,
  handleCommand,
  loadState,
} from '@app/kernel';
import { createEventStore } from '@app/event-store';
import { createReadStore } from '@app/read-store';
import { type RunningProcesses, runProcesses } from '../support/processes';
import { type PurgeSpace, type SpaceCommand, spaceDecider, spaceStream } from '@app/content/domain';
import { restoreWindowProcess } from '@app/content/processes/restore-window.process';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const START_TIME = '2026-03-01T09:00:00.000Z';

describe('restore window process', () => {
  let dir: string;
  let events: EventStore;
  let reads: ReadStore;
  let clock: ManualClock;
  let dispatched: string[];
  let running: RunningProcesses | undefined;

  /** Sends the process's commands to the space, as the content context does. */
  const dispatch: CommandDispatcher = async (command) => {
    dispatched.push(command.type);
    if (command.type !== 'PurgeSpace') throw new Error(`unexpected command ${command.type}`);
    const data = command.data as PurgeSpace['data'];
    await handleCommand(events, spaceDecider, spaceStream(data.spaceId), {
      type: 'PurgeSpace',
      data,
      metadata: { now: clock.now().toISOString(), commandId: command.commandId },
    });
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-restore-window-'));
    events = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    reads = await createReadStore({ driver: 'sqlite', file: join(dir, 'read.sqlite') });
    clock = new ManualClock(START_TIME);
    dispatched = [];
  });

  afterEach(async () => {
    await stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start() {
    // the periodic check is an hour away: the tests drive deadlines with tick(), except the start-up check
    running = await runProcesses({
      events,
      reads,
      clock,
      dispatch,
      processes: [restoreWindowProcess as ProcessDefinition<unknown>],
      tickMs: HOUR,
    });
    return running;
  }

  async function stop() {
    await running?.stop();
    running = undefined;
  }

  /** Runs a space command at the clock's time; returns the position of what it appended. */
  async function space(command: Omit<SpaceCommand, 'metadata'>): Promise<GlobalPosition | null> {
    const result = await handleCommand(events, spaceDecider, spaceStream(String(command.data.spaceId)), {
      ...command,
      metadata: { now: clock.now().toISOString() },
    } as SpaceCommand);
    return result.position;
  }

  const create = (spaceId: string) =>
    space({
      type: 'CreateSpace',
      data: { spaceId, organizationId: 'o1', title: 'Handbook', revisionId: `${spaceId}-r1`, parent: null, sortKey: 1 },
    });
  const remove = (spaceId: string) => space({ type: 'DeleteSpace', data: { spaceId } });
  const restore = (spaceId: string) => space({ type: 'RestoreSpace', data: { spaceId, parent: null } });

  const typesOf = async (stream: string) => (await events.readStream(stream)).map((e) => e.type);
  const statusOf = async (spaceId: string) =>
    (await loadState(events, spaceDecider, spaceStream(spaceId))).state.status;

  /** Lets the process record what the store holds up to now. */
  async function settle(processes: ProcessRunner) {
    await processes.waitFor(await events.headPosition());
  }

  it('is disarmed by a restore within the window: the space stays', async () => {
    const { processes } = await start();
    await create('s1');
    await settle(processes);
    await remove('s1');
    await settle(processes);

    clock.advance(6 * DAY);
    expect(await processes.tick()).toBe(0);
    expect(await statusOf('s1')).toBe('deleted');
    const restored = await restore('s1');
    expect(restored).not.toBeNull();
    await processes.waitFor(restored as GlobalPosition);

    clock.advance(2 * DAY);
    expect(await processes.tick()).toBe(0);
    expect(await statusOf('s1')).toBe('active');
    expect(dispatched).toEqual([]);
    expect(await typesOf('spacerestore-s1')).toEqual(['DeadlineScheduled', 'DeadlineCancelled']);
  });

  it('purges a space still deleted when the seven days are over, once', async () => {
    const { processes } = await start();
    await create('s1');
    const deletedAt = clock.now().getTime();
    await processes.waitFor((await remove('s1')) as GlobalPosition);
    expect(await typesOf('spacerestore-s1')).toEqual(['DeadlineScheduled']);
    expect((await events.readStream('spacerestore-s1'))[0].data).toEqual({
      key: 'purge',
      at: new Date(deletedAt + 7 * DAY).toISOString(),
    });

    clock.advance(8 * DAY);
    expect(await processes.tick()).toBe(1);
    expect(await typesOf(spaceStream('s1'))).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);

    await settle(processes);
    expect(await processes.tick()).toBe(0);
    clock.advance(DAY);
    expect(await processes.tick()).toBe(0);
    await settle(processes);
    expect(await typesOf(spaceStream('s1'))).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);
    expect(await statusOf('s1')).toBe('purged');
    expect(dispatched).toEqual(['PurgeSpace']);
    expect(await typesOf('spacerestore-s1')).toEqual(['DeadlineScheduled', 'DeadlineReached', 'PurgeDue']);
  });

  it('purges at start-up a space whose window closed while the service was stopped', async () => {
    const first = await start();
    await create('s1');
    await first.processes.waitFor((await remove('s1')) as GlobalPosition);
    await stop();

    clock.advance(8 * DAY);
    await start();
    // no tick(): the runner's start-up check finds the deadline that passed
    for (let i = 0; i < 100 && (await statusOf('s1')) !== 'purged'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await typesOf(spaceStream('s1'))).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);
  });

  it('counts the seven days from the latest deletion', async () => {
    const { processes } = await start();
    await create('s1');
    const firstDeletion = clock.now().getTime();
    await remove('s1');
    clock.advance(DAY);
    await restore('s1');
    clock.advance(2 * DAY);
    const secondDeletion = clock.now().getTime();
    await remove('s1');
    await settle(processes);

    clock.set(new Date(firstDeletion + 7 * DAY + HOUR));
    expect(await processes.tick()).toBe(0);
    expect(await statusOf('s1')).toBe('deleted');

    clock.set(new Date(secondDeletion + 7 * DAY));
    expect(await processes.tick()).toBe(1);
    expect(await statusOf('s1')).toBe('purged');
    expect(await typesOf(spaceStream('s1'))).toEqual([
      'SpaceCreated',
      'SpaceDeleted',
      'SpaceRestored',
      'SpaceDeleted',
      'SpacePurged',
    ]);
    await settle(processes);
    expect(await typesOf('spacerestore-s1')).toEqual([
      'DeadlineScheduled',
      'DeadlineCancelled',
      'DeadlineScheduled',
      'DeadlineReached',
      'PurgeDue',
    ]);
  });

  it('treats deleting twice as a single deletion', async () => {
    const { processes } = await start();
    await create('s1');
    expect(await remove('s1')).not.toBeNull();
    clock.advance(DAY);
    expect(await remove('s1')).toBeNull();
    await settle(processes);
    expect(await typesOf(spaceStream('s1'))).toEqual(['SpaceCreated', 'SpaceDeleted']);
    expect(await typesOf('spacerestore-s1')).toEqual(['DeadlineScheduled']);

    clock.advance(6 * DAY);
    expect(await processes.tick()).toBe(1);
    expect(await typesOf(spaceStream('s1'))).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);
  });
});
