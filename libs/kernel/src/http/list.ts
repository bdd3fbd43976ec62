import { type Doc, type Filter, type ReadStore, type SortSpec } from '../ports/read-store.port';
import { DEFAULT_LIMIT, type ListQuery, type ListResponse, type PageCursorCodec } from './pagination';

export interface ListRequest {
  collection: string;
  /** Identifies the list and its filters: a cursor from another list or filter is refused. */
  scope: string;
  filter?: Filter;
  sort?: SortSpec;
  query: ListQuery;
}

/** Reads one page of a read-model collection as a list envelope `{items, next?, count}`. */
export async function readPage<D extends Doc, T>(
  store: ReadStore,
  cursors: PageCursorCodec,
  request: ListRequest,
  present: (doc: D) => T,
): Promise<ListResponse<T>> {
  const result = await store.find<D>(request.collection, {
    filter: request.filter,
    sort: request.sort,
    limit: request.query.limit ?? DEFAULT_LIMIT,
    after: cursors.decode(request.scope, request.query.page),
  });
  const response: ListResponse<T> = { items: result.items.map(present), count: result.total };
  if (result.next) response.next = { page: cursors.encode(request.scope, result.next) };
  return response;
}

/** Stands for the items while the rest of the envelope is serialised (no item or cursor can hold a NUL). */
const ITEMS = '\u0000items\u0000';
const ITEMS_JSON = `"items":${JSON.stringify(ITEMS)}`;
const COMMA = Buffer.from(',');

/**
 * The JSON text, as UTF-8, of a list envelope whose items are already serialised (as UTF-8 too): exactly what
 * `JSON.stringify` gives for the envelope with the items in place (its fields keep their order). A page of 100
 * spaces presented from kept fragments is copied once into the answer, not serialised, joined and encoded
 * again on every request.
 */
export function listJson(page: ListResponse<unknown>, items: readonly Uint8Array[]): Buffer {
  const envelope = JSON.stringify({ ...page, items: ITEMS });
  const at = envelope.indexOf(ITEMS_JSON);
  const parts: Uint8Array[] = [Buffer.from(`${envelope.slice(0, at)}"items":[`)];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(Buffer.from(`]${envelope.slice(at + ITEMS_JSON.length)}`));
  return Buffer.concat(parts);
}
