import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CommandDispatcher,
  type DeadlineEvent,
  type DomainEvent,
  type EventStore,
  ManualClock,
  type ProcessDefinition,
  type ReadStore,
  START,
  newEventId,
} from '@app/kernel';
import { createEventStore } from '@app/event-store';
import { createReadStore } from '@app/read-store';
import { type RunningProcesses, runProcesses } from '../support/processes';

type ReminderEvent = DomainEvent<'ReminderDue', { taskId: string }>;
type ReminderState = { taskId?: string; open: boolean; reminded: boolean };

/** A small process: a task opened with a due date gets one reminder when it is still open at that date. */
const reminders: ProcessDefinition<ReminderState, ReminderEvent> = {
  name: 'reminders',
  handles: ['TaskOpened', 'TaskClosed'],
  instanceOf: (event) => String(event.data.taskId),
  initialState: () => ({ open: false, reminded: false }),
  evolve(state, event: ReminderEvent | DeadlineEvent) {
    switch (event.type) {
      case 'DeadlineScheduled':
        return { ...state, open: true };
      case 'DeadlineCancelled':
        return { ...state, open: false };
      case 'ReminderDue':
        return { ...state, taskId: event.data.taskId, reminded: true };
      default:
        return state;
    }
  },
  when(_state, event) {
    if (event.type === 'TaskOpened')
      return [{ type: 'DeadlineScheduled', data: { key: 'due', at: String(event.data.dueAt) } }];
    return [{ type: 'DeadlineCancelled', data: { key: 'due' } }];
  },
  onDeadline(state, deadline, _now) {
    if (!state.open || deadline.key !== 'due') return [];
    return [{ type: 'ReminderDue', data: { taskId: 'from-deadline' } }];
  },
  commands(_state, event) {
    return event.type === 'ReminderDue' ? [{ type: 'SendReminder', data: { taskId: event.data.taskId } }] : [];
  },
};

describe('process runner', () => {
  let dir: string;
  let events: EventStore;
  let reads: ReadStore;
  let clock: ManualClock;
  let sent: { type: string; commandId: string }[];
  let running: RunningProcesses | undefined;

  const dispatch: CommandDispatcher = async (command) => {
    // an idempotent receiver: the same command id twice is one command
    if (!sent.some((s) => s.commandId === command.commandId))
      sent.push({ type: command.type, commandId: command.commandId });
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-process-'));
    events = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    reads = await createReadStore({ driver: 'sqlite', file: join(dir, 'read.sqlite') });
    clock = new ManualClock('2026-03-01T00:00:00.000Z');
    sent = [];
  });

  afterEach(async () => {
    await stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start() {
    // a tick far in the future: tests drive deadlines with tick()
    running = await runProcesses({
      events,
      reads,
      clock,
      dispatch,
      processes: [reminders as ProcessDefinition<unknown>],
      tickMs: 3_600_000,
    });
    return running;
  }

  async function stop() {
    await running?.stop();
    running = undefined;
  }

  const open = (taskId: string, dueAt: string) =>
    events.append(`task-${taskId}`, [{ id: newEventId(), type: 'TaskOpened', data: { taskId, dueAt } }], 'any');
  const close = (taskId: string) =>
    events.append(`task-${taskId}`, [{ id: newEventId(), type: 'TaskClosed', data: { taskId } }], 'any');

  it('records deadlines in the process stream and fires them once when the clock passes them', async () => {
    const { processes } = await start();
    const { position } = await open('t1', '2026-03-08T00:00:00.000Z');
    await processes.waitFor(position);
    const stream = await events.readStream('reminders-t1');
    expect(stream.map((e) => e.type)).toEqual(['DeadlineScheduled']);

    clock.set('2026-03-07T23:59:59.000Z');
    expect(await processes.tick()).toBe(0);
    expect(sent).toEqual([]);

    clock.set('2026-03-08T00:00:01.000Z');
    expect(await processes.tick()).toBe(1);
    expect(await processes.tick()).toBe(0);
    expect(sent).toEqual([{ type: 'SendReminder', commandId: expect.any(String) }]);
    expect((await events.readStream('reminders-t1')).map((e) => e.type)).toEqual([
      'DeadlineScheduled',
      'DeadlineReached',
      'ReminderDue',
    ]);
  });

  it('does not fire a cancelled deadline', async () => {
    const { processes } = await start();
    await open('t2', '2026-03-02T00:00:00.000Z');
    const { position } = await close('t2');
    await processes.waitFor(position);
    clock.set('2026-04-01T00:00:00.000Z');
    expect(await processes.tick()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('fires at start-up a deadline that passed while the service was stopped', async () => {
    const first = await start();
    const { position } = await open('t3', '2026-03-02T00:00:00.000Z');
    await first.processes.waitFor(position);
    await stop();

    clock.set('2026-03-05T00:00:00.000Z');
    const second = await start();
    // the start-up check runs at once; wait for the process stream to show it
    for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sent).toHaveLength(1);
    expect(await second.processes.tick()).toBe(0);
  });

  it('handles a redelivered trigger without recording it twice, re-sending the same command ids', async () => {
    const first = await start();
    const { position } = await open('t4', '2026-03-02T00:00:00.000Z');
    await first.processes.waitFor(position);
    clock.set('2026-03-03T00:00:00.000Z');
    await first.processes.tick();
    await stop();
    const before = await events.readStream('reminders-t4');

    await reads.write([], [{ name: 'process:reminders', position: START }]);
    const second = await start();
    await second.processes.waitFor(await events.headPosition());
    expect(await events.readStream('reminders-t4')).toHaveLength(before.length);
    expect(sent).toHaveLength(1);
  });

  it('brings its checkpoint up to the head a moment after events that do not concern it, with nothing more coming', async () => {
    const running = await start();
    const { position: concerning } = await open('t5', '2026-03-02T00:00:00.000Z');
    await running.processes.waitFor(concerning);
    // events of no interest right after a saved batch are saved at most once a second, and then without another batch
    for (let i = 0; i < 3; i++) {
      await events.append('other-1', [{ id: newEventId(), type: 'SomethingElse', data: {} }], 'any');
    }
    const head = await events.headPosition();
    await running.processes.waitFor(head);
    const stored = async () => (await reads.getCheckpoint('process:reminders'))?.position;
    expect(await stored()).toBeLessThan(head);
    const until = Date.now() + 3000;
    while ((await stored()) !== head && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stored()).toBe(head);
  });
});
