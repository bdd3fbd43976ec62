import { type DomainEvent } from '../domain/decider';
import { type Clock } from '../ports/clock.port';
import {
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
  type Subscription,
  START,
  WrongExpectedRevision,
  streamName,
} from '../ports/event-store.port';
import { type Doc, type ReadStore } from '../ports/read-store.port';
import { deterministicEventId } from './ids';
import { type CommandDispatcher, type DeadlineEvent, type ProcessDefinition } from './process';
import { type Projection } from './projection';
import { type ProjectionRunner } from './projection-runner';

export const DEADLINES_COLLECTION = 'process_deadlines';

interface DeadlineDoc extends Doc {
  process: string;
  instance: string;
  key: string;
  at: string;
}

const PROCESS_STREAM_SEPARATOR = '-';

function parseProcessStream(streamId: string): { process: string; instance: string } {
  const dash = streamId.indexOf(PROCESS_STREAM_SEPARATOR);
  return { process: streamId.slice(0, dash), instance: streamId.slice(dash + 1) };
}

/**
 * The read model of armed deadlines, built like any projection from the processes' own streams. At start-up the
 * runner finds what is due in it, so a deadline that passed while the service was down fires at once.
 */
export const deadlinesProjection: Projection<DeadlineDoc> = {
  name: 'process-deadlines',
  version: 1,
  collection: DEADLINES_COLLECTION,
  indexes: [{ fields: [['at', 1]] }],
  handles: ['DeadlineScheduled', 'DeadlineCancelled', 'DeadlineReached'],
  idOf: (event) => `${event.streamId}:${String(event.data.key)}`,
  evolve(_doc, event) {
    if (event.type !== 'DeadlineScheduled') return null;
    const { process, instance } = parseProcessStream(event.streamId);
    return {
      id: `${event.streamId}:${String(event.data.key)}`,
      process,
      instance,
      key: String(event.data.key),
      at: String(event.data.at),
    };
  },
};

export interface ProcessRunnerOptions {
  /** How often due deadlines are looked for. */
  tickMs?: number;
  batchSize?: number;
  logger?: { error(message: string): void };
}

const checkpointName = (process: ProcessDefinition<unknown>) => `process:${process.name}`;
const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * Drives processes from the durable subscription, one checkpointed loop per process. What an event means for a
 * process is recorded in the process's own stream, marked with the trigger as its cause; the commands of what was
 * recorded are then sent with ids derived from that cause. A redelivered trigger finds its cause already recorded
 * and only re-sends the same commands (which their handlers treat as no-ops), so a crash between recording and
 * sending loses nothing. Deadlines are events too; `tick()` fires those that are due by the injected clock.
 */
export class ProcessRunner {
  private readonly byName = new Map<string, ProcessDefinition<unknown>>();
  private readonly loops: { subscription: Subscription; done: Promise<void> }[] = [];
  private readonly positions = new Map<string, GlobalPosition>();
  private waiters: { position: GlobalPosition; resolve: () => void }[] = [];
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<number>;
  private running = false;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    private readonly dispatch: CommandDispatcher,
    readonly processes: readonly ProcessDefinition<unknown>[],
    private readonly options: ProcessRunnerOptions = {},
  ) {
    for (const process of processes) {
      if (!/^[a-z][a-z0-9]*$/i.test(process.name)) throw new Error(`process name ${process.name} must be alphanumeric`);
      this.byName.set(process.name, process);
    }
  }

  /** Starts one subscription per process from its checkpoint, and the periodic deadline check. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (const process of this.processes) {
      const checkpoint = await this.readStore.getCheckpoint(checkpointName(process));
      const after = checkpoint?.position ?? START;
      this.positions.set(process.name, after);
      const subscription = this.events.subscribeToAll({ after, batchSize: this.options.batchSize ?? 200 });
      const done = this.follow(process, subscription);
      this.loops.push({ subscription, done });
    }
    const tickMs = this.options.tickMs ?? 1000;
    const loop = () => {
      this.tick()
        .catch((error: unknown) => this.options.logger?.error(`deadline check failed: ${String(error)}`))
        .finally(() => {
          if (this.running) this.timer = setTimeout(loop, tickMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all(this.loops.map((loop) => loop.subscription.close()));
    await Promise.all(this.loops.map((loop) => loop.done));
    this.loops.length = 0;
    await this.ticking;
  }

  /** Resolves once every process has handled the store up to `position`. */
  waitFor(position: GlobalPosition, timeoutMs = 5000): Promise<void> {
    if (this.reached(position)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { position, resolve: () => undefined as void };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error('processes did not catch up in time'));
      }, timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  /** Handles one triggering event. Idempotent. */
  async react(process: ProcessDefinition<unknown>, trigger: RecordedEvent): Promise<void> {
    const instance = process.instanceOf(trigger);
    if (instance === null) return;
    await this.record(
      process,
      streamName(process.name, instance),
      `trigger:${trigger.id}`,
      (state) => process.when(state, trigger),
      trigger.metadata.correlationId,
    );
  }

  /** Fires every deadline that is due by the clock; returns how many fired. */
  async tick(): Promise<number> {
    while (this.ticking) await this.ticking;
    const run = this.fireDue();
    this.ticking = run;
    try {
      return await run;
    } finally {
      this.ticking = undefined;
    }
  }

  private async fireDue(): Promise<number> {
    const now = this.clock.now().toISOString();
    // deadlines recorded by processes must be visible in the read model before looking for due ones
    await this.projections.catchUp([deadlinesProjection.name]);
    const due = await this.readStore.find<DeadlineDoc>(DEADLINES_COLLECTION, {
      filter: { at: { $lte: now } },
      sort: [['at', 1]],
      limit: 1000,
    });
    for (const deadline of due.items) await this.fire(deadline, now);
    if (due.items.length > 0) await this.projections.catchUp([deadlinesProjection.name]);
    return due.items.length;
  }

  private async follow(process: ProcessDefinition<unknown>, subscription: Subscription): Promise<void> {
    const handles = new Set(process.handles);
    let savedAt = 0;
    let saved: GlobalPosition = START;
    let unsaved: GlobalPosition | null = null;
    let later: ReturnType<typeof setTimeout> | null = null;
    let saving: Promise<void> = Promise.resolve();
    // Saves go one after the other and never move the checkpoint back (a delayed save may meet a newer one).
    const save = (position: GlobalPosition): Promise<void> => {
      if (later) clearTimeout(later);
      later = null;
      unsaved = null;
      saving = saving.then(async () => {
        if (position <= saved) return;
        await this.readStore.write([], [{ name: checkpointName(process), position }]);
        saved = position;
        savedAt = Date.now();
      });
      return saving;
    };
    try {
      for await (const batch of subscription) {
        if (batch.length === 0) continue;
        let handled = 0;
        for (const event of batch) {
          if (!handles.has(event.type)) continue;
          handled++;
          await this.withRetry(() => this.react(process, event), `${process.name} on ${event.type} ${event.id}`);
        }
        const last = batch[batch.length - 1].position;
        // A batch that concerned the process is checkpointed at once; others at most once a second (replaying
        // them after a crash is harmless: nothing in them is for this process).
        if (handled > 0 || Date.now() - savedAt >= CHECKPOINT_INTERVAL_MS) await save(last);
        else {
          unsaved = last;
          // saved a moment later even if no other batch comes, so that a process at rest shows no lag
          later ??= setTimeout(() => {
            later = null;
            if (unsaved !== null)
              save(unsaved).catch((error: unknown) =>
                this.options.logger?.error(`process ${process.name}: checkpoint not saved: ${String(error)}`),
              );
          }, CHECKPOINT_INTERVAL_MS);
        }
        this.positions.set(process.name, last);
        this.notify();
      }
      if (unsaved !== null) await save(unsaved);
      else if (later) clearTimeout(later);
    } catch (error) {
      this.options.logger?.error(`process ${process.name} stopped: ${(error as Error).stack ?? String(error)}`);
    }
  }

  private async withRetry(work: () => Promise<void>, what: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        this.options.logger?.error(`process step failed (${what}), attempt ${attempt + 1}: ${String(error)}`);
        if (!this.running) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 5000)));
      }
    }
  }

  private async fire(deadline: DeadlineDoc, now: string): Promise<void> {
    const process = this.byName.get(deadline.process);
    if (!process) return;
    await this.record(
      process,
      streamName(process.name, deadline.instance),
      `deadline:${deadline.key}:${deadline.at}`,
      (state) => [
        { type: 'DeadlineReached', data: { key: deadline.key, at: deadline.at, reachedAt: now } } as DeadlineEvent,
        ...(process.onDeadline?.(state, { key: deadline.key, at: deadline.at, instance: deadline.instance }, now) ??
          []),
      ],
    );
  }

  private async record(
    process: ProcessDefinition<unknown>,
    stream: string,
    cause: string,
    decide: (state: unknown) => readonly DomainEvent[],
    correlationId?: string,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const history = await this.events.readStream(stream);
      let state = process.initialState();
      let recorded: DomainEvent[] | null = null;
      let before = state;
      for (const event of history) {
        if (recorded === null && event.metadata.causationId === cause) {
          recorded = [];
          before = state;
        }
        if (recorded !== null && event.metadata.causationId === cause) recorded.push(toEvent(event));
        state = process.evolve(state, toEvent(event) as never);
      }
      if (recorded === null) {
        before = state;
        recorded = [...decide(state)];
        if (recorded.length === 0) return;
        try {
          await this.events.append(
            stream,
            recorded.map((event, index) => ({
              id: deterministicEventId(`${stream}:${cause}:${index}`),
              type: event.type,
              data: event.data as Record<string, unknown>,
              metadata: { causationId: cause, ...(correlationId ? { correlationId } : {}) },
            })),
            history.length === 0 ? 'no_stream' : history[history.length - 1].revision,
          );
        } catch (error) {
          if (error instanceof WrongExpectedRevision && attempt < 10) continue;
          throw error;
        }
      }
      await this.sendCommands(process, stream, cause, before, recorded, correlationId);
      return;
    }
  }

  private async sendCommands(
    process: ProcessDefinition<unknown>,
    stream: string,
    cause: string,
    before: unknown,
    recorded: readonly DomainEvent[],
    correlationId?: string,
  ): Promise<void> {
    let state = before;
    for (const [index, event] of recorded.entries()) {
      state = process.evolve(state, event as never);
      for (const [n, command] of (process.commands?.(state, event as never) ?? []).entries()) {
        await this.dispatch({
          ...command,
          commandId: `${stream}:${cause}:${index}:${n}`,
          causationId: cause,
          ...(correlationId ? { correlationId } : {}),
        });
      }
    }
  }

  private reached(position: GlobalPosition): boolean {
    for (const process of this.processes) {
      const at = this.positions.get(process.name);
      if (at === undefined || at < position) return false;
    }
    return true;
  }

  private notify(): void {
    const pending = [];
    for (const waiter of this.waiters) {
      if (this.reached(waiter.position)) waiter.resolve();
      else pending.push(waiter);
    }
    this.waiters = pending;
  }
}

function toEvent(event: RecordedEvent): DomainEvent {
  return { type: event.type, data: event.data };
}
