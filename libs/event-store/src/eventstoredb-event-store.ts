import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  START,
  WrongExpectedRevision,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '@app/kernel';

export interface EventStoreDbEventStoreOptions {
  /** For example `esdb://localhost:2113?tls=false`. */
  connectionString: string;
}

const TWO_64 = 1n << 64n;
const LOW_64 = TWO_64 - 1n;
const DEFAULT_BATCH_SIZE = 500;
const READ_PAGE = 1000;

/** Both parts of an EventStoreDB log position in one ordered bigint: `commit * 2^64 + prepare`. */
export function encodePosition(position: Position): GlobalPosition {
  return position.commit * TWO_64 + position.prepare;
}

export function decodePosition(position: GlobalPosition): Position {
  return { commit: position >> 64n, prepare: position & LOW_64 };
}

/** A log position the server actually reported (not absent, nor -1 sent as a signed or unsigned number). */
function isRealPosition(position: Position | undefined): position is Position {
  const limit = 1n << 63n;
  return (
    position !== undefined &&
    position.commit >= 0n &&
    position.prepare >= 0n &&
    position.commit < limit &&
    position.prepare < limit
  );
}

/** System streams (`$…`, metadata streams `$$…`) and system event types (`$…`) are not the application's. */
function isSystem(streamId: string, type: string): boolean {
  return streamId.startsWith('$') || type.startsWith('$');
}

type AnyRecordedEvent = NonNullable<ResolvedEvent['event']>;

/** The event store of the production shape: EventStoreDB (or KurrentDB) through its gRPC client. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();
  private closed = false;

  constructor(options: EventStoreDbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(options.connectionString);
  }

  async append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    if (events.length === 0) return this.appendNothing(streamId, expected);
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((event) =>
          jsonEvent({
            id: event.id,
            type: event.type,
            data: event.data,
            metadata: (event.metadata ?? {}) as Record<string, unknown>,
          }),
        ),
        { expectedRevision: toEsdbExpected(expected) },
      );
      const nextRevision = Number(result.nextExpectedRevision);
      // An idempotent retry may come back without a position: look it up from the stream's last event.
      const position = isRealPosition(result.position)
        ? encodePosition(result.position)
        : await this.positionOfRevision(streamId, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      throw this.mapAppendError(error, streamId, expected);
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    if (maxCount <= 0) return [];
    const out: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: BigInt(Math.max(0, options.fromRevision ?? 0)),
        maxCount,
        direction: FORWARDS,
      });
      for await (const resolved of read) {
        if (resolved.event) out.push(toRecordedEvent(resolved.event, resolved.commitPosition));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const out: RecordedEvent[] = [];
    let after = options.after ?? START;
    while (out.length < limit) {
      // `fromPosition` of a read is inclusive: the event at `after` comes back and is skipped below.
      const read = this.client.readAll({
        fromPosition: after === START ? ESDB_START : decodePosition(after),
        maxCount: READ_PAGE,
        direction: FORWARDS,
      });
      let count = 0;
      for await (const resolved of read) {
        count += 1;
        const event = resolved.event;
        if (!event) continue;
        const position = encodePosition(event.position);
        if (position <= after) continue;
        after = position;
        if (isSystem(event.streamId, event.type)) continue;
        if (out.length < limit) out.push(toRecordedEvent(event));
      }
      if (count < READ_PAGE) break;
    }
    return out;
  }

  async headPosition(): Promise<GlobalPosition> {
    this.assertOpen();
    // The last event that is not a system event: read $all backwards, page by page.
    let from: Position | typeof END = END;
    for (;;) {
      const read = this.client.readAll({ fromPosition: from, maxCount: READ_PAGE, direction: BACKWARDS });
      let count = 0;
      let oldest: Position | null = null;
      for await (const resolved of read) {
        count += 1;
        const event = resolved.event;
        if (!event) continue;
        if (!isSystem(event.streamId, event.type)) {
          await read.cancel().catch(() => undefined);
          return encodePosition(event.position);
        }
        oldest = event.position;
      }
      if (count < READ_PAGE || oldest === null) return START;
      from = oldest;
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const after = options.after ?? START;
    const stream = this.client.subscribeToAll({
      fromPosition: after === START ? ESDB_START : decodePosition(after),
      filter: excludeSystemEvents(),
    });
    const subscription = new EsdbSubscription(stream, after, options.batchSize ?? DEFAULT_BATCH_SIZE, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    const read = this.client.readAll({ fromPosition: END, maxCount: 1, direction: BACKWARDS });
    for await (const _ of read) break;
    await read.cancel().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event store is closed');
  }

  /** An empty append writes nothing: the expected revision is checked against the stream's last event. */
  private async appendNothing(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const last = await this.lastEvent(streamId);
    const current = last ? last.revision : -1;
    const actual = last ? last.revision : 'no_stream';
    const holds =
      expected === 'any' ||
      (expected === 'no_stream' && !last) ||
      (expected === 'stream_exists' && !!last) ||
      (typeof expected === 'number' && expected === current);
    if (!holds) throw new WrongExpectedRevision(streamId, expected, actual);
    return { nextRevision: current, position: last ? last.position : START };
  }

  private async lastEvent(streamId: string): Promise<RecordedEvent | null> {
    try {
      const read = this.client.readStream(streamId, { fromRevision: END, maxCount: 1, direction: BACKWARDS });
      for await (const resolved of read) {
        if (resolved.event) return toRecordedEvent(resolved.event, resolved.commitPosition);
      }
      return null;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
  }

  private async positionOfRevision(streamId: string, revision: number): Promise<GlobalPosition> {
    if (revision >= 0) {
      const events = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
      if (events.length > 0) return events[0].position;
    }
    // Never below the real position: waiting for it is still correct.
    return this.headPosition();
  }

  private mapAppendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
    if (error instanceof WrongExpectedVersionError) {
      const actual = error.actualVersion;
      return new WrongExpectedRevision(
        streamId,
        expected,
        actual === NO_STREAM || actual === undefined || actual === null || BigInt(actual) < 0n
          ? 'no_stream'
          : Number(actual),
      );
    }
    return error;
  }
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isInteger(expected)) throw new Error(`invalid expected revision ${String(expected)}`);
      return expected < 0 ? NO_STREAM : BigInt(expected);
  }
}

function toRecordedEvent(event: AnyRecordedEvent, commitPosition?: bigint): RecordedEvent {
  const position = event.position
    ? encodePosition(event.position)
    : commitPosition !== undefined
      ? encodePosition({ commit: commitPosition, prepare: commitPosition })
      : null;
  if (position === null)
    throw new Error(`event ${event.id} came without a log position (EventStoreDB older than 22.6?)`);
  return {
    id: event.id,
    streamId: event.streamId,
    type: event.type,
    data: asObject(event.data, event.id),
    metadata: (isPlainObject(event.metadata) ? event.metadata : {}) as EventMetadata,
    revision: Number(event.revision),
    position,
    recordedAt: event.created.toISOString(),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function asObject(data: unknown, id: string): Record<string, unknown> {
  if (isPlainObject(data)) return data;
  if (data instanceof Uint8Array) {
    const parsed: unknown = JSON.parse(Buffer.from(data).toString('utf8'));
    if (isPlainObject(parsed)) return parsed;
  }
  throw new Error(`event ${id} does not hold a JSON object`);
}

/**
 * Adapts the client's readable subscription to batches: events are buffered as they arrive (the stream is paused
 * while the buffer is full) and handed out up to `batchSize` at a time.
 */
class EsdbSubscription implements Subscription {
  private readonly buffer: RecordedEvent[] = [];
  private readonly highWater: number;
  private closed = false;
  private ended = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  private iterating = false;

  constructor(
    private readonly stream: AllStreamSubscription,
    private after: GlobalPosition,
    private readonly batchSize: number,
    private readonly onClose: () => void,
  ) {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`invalid subscription batch size ${batchSize}`);
    this.highWater = Math.max(batchSize * 4, 1000);
    stream.on('data', (resolved: AllStreamResolvedEvent) => this.receive(resolved));
    stream.on('error', (error: Error) => {
      if (!this.closed) this.failure = error;
      this.signal();
    });
    stream.on('end', () => {
      this.ended = true;
      this.signal();
    });
    stream.on('close', () => {
      this.ended = true;
      this.signal();
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent[]> {
    if (this.iterating) throw new Error('a subscription can be iterated only once');
    this.iterating = true;
    return this.batches();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    this.signal();
    try {
      await this.stream.unsubscribe();
    } catch {
      // Already ended or cancelled: nothing left to release.
    }
  }

  private receive(resolved: AllStreamResolvedEvent): void {
    const event = resolved.event;
    if (!event || this.closed) return;
    const position = encodePosition(event.position);
    if (position <= this.after) return;
    this.after = position;
    if (isSystem(event.streamId, event.type)) return;
    this.buffer.push(toRecordedEvent(event));
    if (this.buffer.length >= this.highWater) this.stream.pause();
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async *batches(): AsyncGenerator<RecordedEvent[], void, undefined> {
    try {
      for (;;) {
        if (this.closed) return;
        if (this.buffer.length > 0) {
          if (this.buffer.length < this.batchSize) {
            // Let events that already arrived join the batch.
            await new Promise<void>((resolve) => setImmediate(resolve));
            if (this.closed) return;
          }
          const batch = this.buffer.splice(0, this.batchSize);
          if (this.stream.isPaused() && this.buffer.length < this.highWater / 2) this.stream.resume();
          yield batch;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      await this.close();
    }
  }
}
