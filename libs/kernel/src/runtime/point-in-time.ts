import { NotFound, ValidationFailed } from '../domain/errors';
import { type EventStore, type GlobalPosition, type RecordedEvent } from '../ports/event-store.port';
import { type Doc } from '../ports/read-store.port';
import { type Projection } from './projection';

/**
 * A moment in a resource's past: a global position (the event at that position included) or an instant (every
 * event recorded at or before it).
 */
export type PointInTime = { position: GlobalPosition } | { time: number };

export const POSITION_TEXT = /^\d{1,20}$/;
export const ISO_TIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Reads the `at` parameter; undefined when absent. */
export function pointInTime(text: string | undefined): PointInTime | undefined {
  if (text === undefined) return undefined;
  if (POSITION_TEXT.test(text)) return { position: BigInt(text) };
  const time = ISO_TIME_TEXT.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) {
    throw new ValidationFailed('at must be a position (digits) or an ISO 8601 date-time with a time zone');
  }
  return { time };
}

/** Whether the event had happened at that point. */
export function happenedBy(event: RecordedEvent, at: PointInTime): boolean {
  return 'position' in at ? event.position <= at.position : Date.parse(event.recordedAt) <= at.time;
}

/** One step of a resource's life: the event and the document just after it. */
export interface FoldStep<D extends Doc> {
  event: RecordedEvent;
  before: D | null;
  after: D | null;
}

/**
 * Folds a projection over the events of one stream that concern one document, in order: the read model of that
 * resource at every step of its life, rebuilt from the events rather than read from the store. The document a
 * projection builds may also take events of other streams (counts, for example); only the resource's own stream
 * is folded here, which is what its history and point-in-time reads are about.
 */
export async function foldStream<D extends Doc>(
  events: EventStore,
  projection: Projection<D>,
  streamId: string,
  id: string,
  until?: PointInTime,
): Promise<FoldStep<D>[]> {
  const handled = new Set(projection.handles);
  const steps: FoldStep<D>[] = [];
  let doc: D | null = null;
  for (const event of await events.readStream(streamId)) {
    if (until && !happenedBy(event, until)) break;
    if (!handled.has(event.type) || projection.idOf(event) !== id) continue;
    const after = projection.evolve(doc, event);
    steps.push({ event, before: doc, after });
    doc = after;
  }
  return steps;
}

/** The document as it was at that point; null when it did not exist yet (or no longer existed). */
export async function documentAt<D extends Doc>(
  events: EventStore,
  projection: Projection<D>,
  streamId: string,
  id: string,
  at: PointInTime,
): Promise<D | null> {
  const steps = await foldStream(events, projection, streamId, id, at);
  return steps.length === 0 ? null : steps[steps.length - 1].after;
}

type Changes = Record<string, { from: unknown; to: unknown }>;

/** The listed fields whose values differ between two versions of a document (compared as JSON). */
export function fieldChanges<D extends Doc>(
  before: D | null,
  after: D | null,
  fields: readonly string[],
): Changes | undefined {
  if (!before || !after) return undefined;
  const changes: Changes = {};
  for (const field of fields) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return Object.keys(changes).length > 0 ? changes : undefined;
}

/** The document as it was at that point, or a 404 naming the resource when it did not exist then. */
export async function requireDocumentAt<D extends Doc>(
  events: EventStore,
  projection: Projection<D>,
  streamId: string,
  id: string,
  at: PointInTime,
  what: string,
): Promise<D> {
  const doc = await documentAt(events, projection, streamId, id, at);
  if (!doc) throw new NotFound(`${what} did not exist at that point`);
  return doc;
}
