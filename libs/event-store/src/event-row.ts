import { type EventMetadata, type RecordedEvent } from '@app/kernel';

/**
 * An event as a tuple in the column order of the `events` table (`position, stream_id, revision, event_id, type,
 * data, metadata, recorded_at`): `Body` is `string` for a row as SQLite gives it (`data` and `metadata` as stored
 * JSON text), and the parsed values in a page the read-ahead worker sent as one JSON text.
 */
export type EventTuple<Body> = [
  position: number,
  streamId: string,
  revision: number,
  eventId: string,
  type: string,
  data: Body,
  metadata: Body,
  recordedAt: string,
];

/** A row as read in raw mode. */
export type EventRow = EventTuple<string>;

/** The recorded event of a tuple, given its data and metadata as values (one object shape for every reader). */
export function recordedEventOf(
  row: EventTuple<unknown>,
  data: Record<string, unknown>,
  metadata: EventMetadata,
): RecordedEvent {
  return {
    position: BigInt(row[0]),
    streamId: row[1],
    revision: row[2],
    id: row[3],
    type: row[4],
    data,
    metadata,
    recordedAt: row[7],
  };
}
