import { type Command, type Decider, type DomainEvent } from '../domain/decider';
import { PreconditionFailed, DomainError } from '../domain/errors';
import {
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
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
/** Commands on one stream in this process run one after the other instead of conflicting with each other. */
const queues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

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

function serialised<T>(store: EventStore, streamId: string, work: () => Promise<T>): Promise<T> {
  let byStream = queues.get(store);
  if (!byStream) queues.set(store, (byStream = new Map()));
  const previous = byStream.get(streamId) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.catch(() => undefined);
  byStream.set(streamId, settled);
  void settled.then(() => {
    if (byStream.get(streamId) === settled) byStream.delete(streamId);
  });
  return run;
}

/**
 * The one command handler every use case goes through: load the stream, fold the state, decide, append with
 * the expected revision. Without `If-Match`, a concurrent append (by another process) is retried on fresh state a
 * bounded number of times; with it, a mismatch is a `PreconditionFailed`.
 */
export function handleCommand<State, Cmd extends Command, Evt extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Cmd, Evt>,
  streamId: string,
  command: Cmd,
  options: HandleOptions = {},
): Promise<HandleResult<State, Evt>> {
  return serialised(store, streamId, () => decideAndAppend(store, decider, streamId, command, options));
}

async function decideAndAppend<State, Cmd extends Command, Evt extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Cmd, Evt>,
  streamId: string,
  command: Cmd,
  options: HandleOptions,
): Promise<HandleResult<State, Evt>> {
  const maxRetries = options.ifMatch === undefined ? (options.maxRetries ?? DEFAULT_RETRIES) : 0;
  for (let attempt = 0; ; attempt++) {
    let { state, revision } = await foldStream(store, decider, streamId);
    requireIfMatch(options.ifMatch, revision);
    const events = [...decider.decide(command, state)];
    if (events.length === 0) return { events, state, revision, position: null };
    for (const event of events) state = decider.evolve(state, event);

    const expected: ExpectedRevision = revision === -1 ? 'no_stream' : revision;
    try {
      const result = await store.append(
        streamId,
        events.map((event, index) => ({
          id: command.metadata.commandId
            ? deterministicEventId(`${command.metadata.commandId}:${streamId}:${index}`)
            : newEventId(),
          type: event.type,
          data: event.data as Record<string, unknown>,
          metadata: metadataOf(command),
        })),
        expected,
      );
      revision = result.nextRevision;
      // An idempotent re-append (same command id) returns the earlier revision: only cache a fold we are sure of.
      if (result.nextRevision === (expected === 'no_stream' ? -1 : expected) + events.length) {
        remember(cacheOf(store, decider), streamId, { state, revision });
      } else {
        cacheOf(store, decider).delete(streamId);
      }
      return { events, state, revision, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
      if (options.ifMatch !== undefined) {
        throw new PreconditionFailed(`the resource changed after revision ${revision}`);
      }
      if (attempt >= maxRetries) {
        throw new DomainError('conflict', 'the resource is being changed concurrently; try again');
      }
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
