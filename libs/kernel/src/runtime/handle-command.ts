import { type Command, type Decider, type DomainEvent } from '../domain/decider';
import { PreconditionFailed, DomainError } from '../domain/errors';
import {
  type EventMetadata,
  type EventStore,
  type AppendResult,
  type EventToAppend,
  type GlobalPosition,
  type RecordedEvent,
  WrongExpectedRevision,
} from '../ports/event-store.port';
import { deterministicEventId, newEventId } from './ids';

export interface HandleOptions {
  /** The revision the caller expects (from `If-Match`); a mismatch is 412 and is never retried. */
  ifMatch?: IfMatch;
  /** How many times a conflict is retried when no `If-Match` was given. */
  maxRetries?: number;
}

export interface HandleResult<State, Evt> {
  /** Events the command produced (empty when the decider decided nothing changes). */
  events: Evt[];
  state: State;
  /** Revision of the stream after the command (-1 when the stream still does not exist). */
  revision: number;
  /** Global position of the append, or null when nothing was appended. */
  position: GlobalPosition | null;
}

const DEFAULT_RETRIES = 5;
const MAX_CACHED_STREAMS = 10_000;

type Folded = { state: unknown; revision: number };

/**
 * Recently folded states, per store and decider. Streams only grow, so a cached fold is brought up to date by
 * reading the events after its revision (also those another process appended), never by replaying the stream.
 */
const folds = new WeakMap<EventStore, WeakMap<object, Map<string, Folded>>>();
/**
 * Commands waiting for their stream in this process, per store and stream (see `handleCommand`). A stream with an
 * entry has a drain under way, which takes the entry out once the list is empty.
 */
const waitingByStore = new WeakMap<EventStore, Map<string, Waiting[]>>();

/** The most commands whose events one append carries. */
const MAX_GROUP = 64;

/** A command waiting for its stream, with how to answer its caller. */
interface Waiting {
  decider: Decider<unknown, Command, DomainEvent>;
  command: Command;
  options: HandleOptions;
  /** How many of its appends lost to a concurrent one so far. */
  conflicts: number;
  resolve(result: HandleResult<unknown, DomainEvent>): void;
  reject(error: unknown): void;
}

function cacheOf(store: EventStore, decider: object): Map<string, Folded> {
  let byDecider = folds.get(store);
  if (!byDecider) folds.set(store, (byDecider = new WeakMap()));
  let cache = byDecider.get(decider);
  if (!cache) byDecider.set(decider, (cache = new Map()));
  return cache;
}

function remember(cache: Map<string, Folded>, streamId: string, folded: Folded): void {
  cache.delete(streamId);
  cache.set(streamId, folded);
  if (cache.size > MAX_CACHED_STREAMS) cache.delete(cache.keys().next().value as string);
}

async function foldStream<State, Evt extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<State, never, Evt>, 'initialState' | 'evolve'>,
  streamId: string,
): Promise<{ state: State; revision: number }> {
  const cache = cacheOf(store, decider);
  const cached = cache.get(streamId) as { state: State; revision: number } | undefined;
  let state = cached ? cached.state : decider.initialState();
  let revision = cached ? cached.revision : -1;
  const events = await store.readStream(streamId, { fromRevision: revision + 1 });
  for (const recorded of events) {
    state = decider.evolve(state, toDomainEvent<Evt>(recorded));
    revision = recorded.revision;
  }
  remember(cache, streamId, { state, revision });
  return { state, revision };
}

/**
 * The one command handler every use case goes through: load the stream, fold the state, decide, append with
 * the expected revision. Without `If-Match`, a concurrent append (by another process) is retried on fresh state a
 * bounded number of times; with it, a mismatch is a `PreconditionFailed`.
 *
 * Commands on one stream in this process run one after the other, in the order they came, instead of conflicting
 * with each other. Those that wait while the stream is busy are then decided together: each on the state its
 * predecessors left, exactly as if they had run one by one, and the events of all of them are appended at once
 * (one transaction, one expected revision). A busy stream thus pays for one append and one projection batch per
 * group rather than per command. A command whose decision fails fails alone; a conflict with another process
 * retries the group on fresh state. Commands of a process (with a `commandId`, whose event ids are derived from
 * it) and those of another decider on the same stream are not grouped.
 */
export function handleCommand<State, Cmd extends Command, Evt extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Cmd, Evt>,
  streamId: string,
  command: Cmd,
  options: HandleOptions = {},
): Promise<HandleResult<State, Evt>> {
  return new Promise<HandleResult<State, Evt>>((resolve, reject) => {
    const waiting: Waiting = {
      decider: decider as unknown as Waiting['decider'],
      command,
      options,
      conflicts: 0,
      resolve: resolve as Waiting['resolve'],
      reject,
    };
    let byStream = waitingByStore.get(store);
    if (!byStream) waitingByStore.set(store, (byStream = new Map()));
    const queue = byStream.get(streamId);
    if (queue) {
      queue.push(waiting);
      return;
    }
    const started = [waiting];
    byStream.set(streamId, started);
    void drain(store, byStream, streamId, started);
  });
}

/** Runs the stream's waiting commands, group after group, until none is left. */
async function drain(
  store: EventStore,
  byStream: Map<string, Waiting[]>,
  streamId: string,
  queue: Waiting[],
): Promise<void> {
  // Commands reach the stream one request at a time, each request's work running to its end before the next
  // request is read, so without a wait no command would ever find another waiting. The first command waits for
  // the rest of this turn of the event loop (every request that came in with it), which then join its group.
  await new Promise<void>((resolve) => setImmediate(resolve));
  while (queue.length > 0) await runGroup(store, streamId, takeGroup(queue));
  byStream.delete(streamId);
}

/** The longest run of waiting commands at the head of the queue that can share an append. */
function takeGroup(queue: Waiting[]): Waiting[] {
  const first = queue[0];
  let size = 1;
  if (first.command.metadata.commandId === undefined) {
    while (
      size < queue.length &&
      size < MAX_GROUP &&
      queue[size].decider === first.decider &&
      queue[size].command.metadata.commandId === undefined
    ) {
      size++;
    }
  }
  return queue.splice(0, size);
}

interface Decided {
  waiting: Waiting;
  events: DomainEvent[];
  /** The state and the stream's revision after this command's events. */
  state: unknown;
  revision: number;
}

/** Decides and appends a group of commands on one decider's stream; answers each of them, never throws. */
async function runGroup(store: EventStore, streamId: string, group: Waiting[]): Promise<void> {
  const { decider } = group[0];
  let pending = group;
  while (pending.length > 0) {
    const decided: Decided[] = [];
    try {
      let { state, revision } = await foldStream(store, decider, streamId);
      const start = revision;
      const toAppend: EventToAppend[] = [];
      for (const waiting of pending) {
        try {
          requireIfMatch(waiting.options.ifMatch, revision);
          const events = [...decider.decide(waiting.command, state)];
          let next = state;
          for (const event of events) next = decider.evolve(next, event);
          const metadata = metadataOf(waiting.command);
          const { commandId } = waiting.command.metadata;
          events.forEach((event, index) =>
            toAppend.push({
              id: commandId ? deterministicEventId(`${commandId}:${streamId}:${index}`) : newEventId(),
              type: event.type,
              data: event.data as Record<string, unknown>,
              metadata,
            }),
          );
          state = next;
          revision += events.length;
          decided.push({ waiting, events, state, revision });
        } catch (error) {
          waiting.reject(error);
        }
      }
      pending = [];
      if (toAppend.length === 0) {
        for (const { waiting, events, state: after, revision: at } of decided) {
          waiting.resolve({ events, state: after, revision: at, position: null });
        }
        return;
      }
      let result: AppendResult;
      try {
        result = await store.append(streamId, toAppend, start === -1 ? 'no_stream' : start);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        for (const item of decided) {
          const { waiting } = item;
          const before = item.revision - item.events.length;
          if (waiting.options.ifMatch !== undefined) {
            waiting.reject(new PreconditionFailed(`the resource changed after revision ${before}`));
          } else if (waiting.conflicts++ >= (waiting.options.maxRetries ?? DEFAULT_RETRIES)) {
            waiting.reject(new DomainError('conflict', 'the resource is being changed concurrently; try again'));
          } else {
            pending.push(waiting);
          }
        }
        continue;
      }
      // An idempotent re-append (a process command's events already stored) answers the earlier revision: only a
      // fold we are sure of is kept. Such a command is always alone in its group.
      const exact = result.nextRevision === revision;
      if (exact) remember(cacheOf(store, decider), streamId, { state, revision });
      else cacheOf(store, decider).delete(streamId);
      for (const item of decided) {
        item.waiting.resolve({
          events: item.events,
          state: item.state,
          revision: exact ? item.revision : result.nextRevision,
          position: item.events.length > 0 ? result.position : null,
        });
      }
      return;
    } catch (error) {
      for (const { waiting } of decided) waiting.reject(error);
      for (const waiting of pending) waiting.reject(error);
      return;
    }
  }
}

/** The revisions an `If-Match` header accepts: one, or a list of which any one holds (RFC 9110 §13.1.1). */
export type IfMatch = number | readonly number[];

/** Throws PreconditionFailed unless `If-Match` (when given) names the resource's revision. */
export function requireIfMatch(ifMatch: IfMatch | undefined, revision: number): void {
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, revision)) {
    throw new PreconditionFailed(`the resource is at revision ${revision}, not ${describeIfMatch(ifMatch)}`);
  }
}

function ifMatchHolds(ifMatch: IfMatch, revision: number): boolean {
  return typeof ifMatch === 'number' ? ifMatch === revision : ifMatch.includes(revision);
}

function describeIfMatch(ifMatch: IfMatch): string {
  return typeof ifMatch === 'number' ? String(ifMatch) : `any of ${ifMatch.join(', ')}`;
}

/** Reads a stream and folds it, for handlers that need a state without deciding anything. */
export function loadState<State, Evt extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<State, never, Evt>, 'initialState' | 'evolve'>,
  streamId: string,
): Promise<{ state: State; revision: number }> {
  return foldStream(store, decider, streamId);
}

export function toDomainEvent<Evt extends DomainEvent>(recorded: RecordedEvent): Evt {
  return { type: recorded.type, data: recorded.data } as unknown as Evt;
}

function metadataOf(command: Command): EventMetadata {
  const metadata: EventMetadata = {};
  if (command.metadata.actor) metadata.userId = command.metadata.actor;
  if (command.metadata.correlationId) metadata.correlationId = command.metadata.correlationId;
  if (command.metadata.causationId) metadata.causationId = command.metadata.causationId;
  metadata.commandType = command.type;
  return metadata;
}
