/**
 * The event store port, with EventStoreDB semantics. Both adapters (SQLite, EventStoreDB) pass the same contract
 * suite in test/contract/event-store.contract-spec.ts.
 */
export const EVENT_STORE = Symbol('EVENT_STORE');

/** Expected state of a stream for an append: EventStoreDB's `any`, `no_stream`, `stream_exists` or an exact revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/**
 * A position in the global order ($all). Opaque to callers except for ordering: a later event has a greater
 * position. Serialised as a decimal string (see `positionToString`).
 */
export type GlobalPosition = bigint;

export const START: GlobalPosition = -1n;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  userId?: string;
  [key: string]: unknown;
}

export interface EventToAppend {
  /** A UUID; appending an event id the stream already holds (a retry) is a no-op. */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Data = Record<string, unknown>> {
  id: string;
  streamId: string;
  type: string;
  data: Data;
  metadata: EventMetadata;
  /** Zero-based revision of the event within its stream. */
  revision: number;
  position: GlobalPosition;
  /** ISO time at which the store recorded the event. */
  recordedAt: string;
}

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  nextRevision: number;
  /** Global position of the last appended event. */
  position: GlobalPosition;
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive); default 0. */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Read the events after this position (exclusive); default: from the start. */
  after?: GlobalPosition;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Deliver events after this position (exclusive); default: from the start. */
  after?: GlobalPosition;
  /** Largest batch delivered at once. */
  batchSize?: number;
}

/**
 * A catch-up subscription to the global order: first what is stored after the position, then live events as they
 * are appended, by this process or another one. Events come in batches, in order, without holes.
 */
export interface Subscription extends AsyncIterable<RecordedEvent[]> {
  close(): Promise<void>;
}

export interface EventStore {
  /** Appends events atomically. Throws `WrongExpectedRevision` when the stream is not in the expected state. */
  append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream in revision order; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of every stream in global order (system events excluded). */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event in the store, or `START` when it is empty. */
  headPosition(): Promise<GlobalPosition>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Resolves when the store can be reached (used by /health). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

export function positionToString(position: GlobalPosition): string {
  return position.toString();
}

export function positionFromString(text: string): GlobalPosition {
  return BigInt(text);
}

/** Builds a stream name `<category>-<id>`. */
export function streamName(category: string, id: string): string {
  return `${category}-${id}`;
}

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}
