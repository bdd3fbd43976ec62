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
  ifMatch?: number;
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

/**
 * The one command handler every use case goes through: load the stream, fold the state, decide, append with
 * the expected revision. Without `If-Match`, a concurrent append is retried on fresh state a bounded number of
 * times; with it, a mismatch is a `PreconditionFailed`.
 */
export async function handleCommand<State, Cmd extends Command, Evt extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Cmd, Evt>,
  streamId: string,
  command: Cmd,
  options: HandleOptions = {},
): Promise<HandleResult<State, Evt>> {
  const maxRetries = options.ifMatch === undefined ? (options.maxRetries ?? DEFAULT_RETRIES) : 0;
  for (let attempt = 0; ; attempt++) {
    const history = await store.readStream(streamId);
    const revision = history.length === 0 ? -1 : history[history.length - 1].revision;
    if (options.ifMatch !== undefined && options.ifMatch !== revision) {
      throw new PreconditionFailed(`the resource is at revision ${revision}, not ${options.ifMatch}`);
    }
    let state = decider.initialState();
    for (const recorded of history) state = decider.evolve(state, toDomainEvent<Evt>(recorded));

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
      return { events, state, revision: result.nextRevision, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
      if (options.ifMatch !== undefined) {
        throw new PreconditionFailed(`the resource changed after revision ${options.ifMatch}`);
      }
      if (attempt >= maxRetries) {
        throw new DomainError('conflict', 'the resource is being changed concurrently; try again');
      }
    }
  }
}

/** Reads a stream and folds it, for handlers that need a state without deciding anything. */
export async function loadState<State, Evt extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<State, never, Evt>, 'initialState' | 'evolve'>,
  streamId: string,
): Promise<{ state: State; revision: number }> {
  const history = await store.readStream(streamId);
  let state = decider.initialState();
  for (const recorded of history) state = decider.evolve(state, toDomainEvent<Evt>(recorded));
  return { state, revision: history.length === 0 ? -1 : history[history.length - 1].revision };
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
