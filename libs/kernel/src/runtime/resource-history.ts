import { type EventStore, type RecordedEvent } from '../ports/event-store.port';
import { type PublicEvent } from '../ports/public-events.port';
import { type Doc } from '../ports/read-store.port';
import { DEFAULT_LIMIT, type ListQuery, type ListResponse, type PageCursorCodec } from '../http/pagination';
import { fieldChanges } from './point-in-time';
import { type Projection } from './projection';

/** One entry of a resource's history: a public event about it, with the fields it changed. */
export type HistoryEntry = PublicEvent & { changes?: Record<string, { from: unknown; to: unknown }> };

export interface HistoryRequest<D extends Doc> {
  /** The resource's own stream, and the projection that builds its read model from it. */
  streamId: string;
  projection: Projection<D>;
  /** The read-model document id, and the public subject events about the resource carry. */
  id: string;
  subject: { object: string; id: string };
  /** Read-model fields whose changes are listed (those the API shows). */
  fields: readonly string[];
  /** The public events one domain event becomes (the context's mapper with the envelope filled). */
  publicEvents(event: RecordedEvent): readonly PublicEvent[];
}

/**
 * One page of a resource's history (`GET .../history`), newest first, with a signed cursor scoped to the resource
 * (`<object>-history:<id>`) like every list.
 */
export async function historyList<D extends Doc>(
  events: EventStore,
  cursors: PageCursorCodec,
  query: ListQuery,
  request: HistoryRequest<D>,
): Promise<ListResponse<HistoryEntry>> {
  const entries = await resourceHistory(events, request);
  return historyPage(entries, cursors, `${request.subject.object}-history:${request.id}`, query);
}

/**
 * The public events about one resource, oldest first, each with `changes` where the event changed listed fields
 * of the resource's read model (folded from its stream, so the values are those of the time).
 */
async function resourceHistory<D extends Doc>(events: EventStore, request: HistoryRequest<D>): Promise<HistoryEntry[]> {
  const { projection, id, subject } = request;
  const handled = new Set(projection.handles);
  const entries: HistoryEntry[] = [];
  let doc: D | null = null;
  for (const event of await events.readStream(request.streamId)) {
    let changes: HistoryEntry['changes'];
    if (handled.has(event.type) && projection.idOf(event) === id) {
      const after = projection.evolve(doc, event);
      changes = fieldChanges(doc, after, request.fields);
      doc = after;
    }
    for (const published of request.publicEvents(event)) {
      if (published.subject.object !== subject.object || published.subject.id !== subject.id) continue;
      entries.push(changes ? { ...published, changes } : published);
    }
  }
  return entries;
}

/** One page of a history, newest first. */
function historyPage(
  entries: readonly HistoryEntry[],
  cursors: PageCursorCodec,
  scope: string,
  query: ListQuery,
): ListResponse<HistoryEntry> {
  const newestFirst = [...entries].reverse();
  const after = cursors.decode(scope, query.page);
  const start = after ? newestFirst.findIndex((entry) => BigInt(entry.position) < BigInt(String(after.values[0]))) : 0;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const from = start < 0 ? newestFirst.length : start;
  const items = newestFirst.slice(from, from + limit);
  const response: ListResponse<HistoryEntry> = { items, count: newestFirst.length };
  const last = items[items.length - 1];
  if (last && from + limit < newestFirst.length) {
    response.next = { page: cursors.encode(scope, { values: [last.position], id: last.id }) };
  }
  return response;
}
