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
  return joinList(envelopeOf(page), items);
}

/** The envelope of a page with a marker where its items go. */
function envelopeOf(page: ListResponse<unknown>): string {
  return JSON.stringify({ ...page, items: ITEMS });
}

function joinList(envelope: string, items: readonly Uint8Array[]): Buffer {
  const at = envelope.indexOf(ITEMS_JSON);
  const parts: Uint8Array[] = [Buffer.from(`${envelope.slice(0, at)}"items":[`)];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(Buffer.from(`]${envelope.slice(at + ITEMS_JSON.length)}`));
  return Buffer.concat(parts);
}

/** How many joined pages a `KeptLists` holds at most (a page of 100 spaces is about 70 KB). */
const MAX_KEPT_LISTS = 64;

/**
 * Joined list answers kept by request (`listJson`'s bytes), for pages whose items are kept bytes themselves (see
 * KeptBodies): a page asked for again is answered with the bytes joined the last time when its envelope (count,
 * next cursor) is the same text and every item is the very same kept bytes, in order. Anything that changed an
 * item gave it new bytes, so the comparison is exact whatever the key; the key only finds the candidate.
 */
export class KeptLists {
  private readonly kept = new Map<string, { envelope: string; items: readonly Uint8Array[]; json: Buffer }>();

  join(key: string, page: ListResponse<unknown>, items: readonly Uint8Array[]): Buffer {
    const envelope = envelopeOf(page);
    const kept = this.kept.get(key);
    if (kept && kept.envelope === envelope && sameItems(kept.items, items)) return kept.json;
    const json = joinList(envelope, items);
    if (!kept && this.kept.size >= MAX_KEPT_LISTS) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { envelope, items, json });
    return json;
  }
}

function sameItems(kept: readonly Uint8Array[], items: readonly Uint8Array[]): boolean {
  if (kept.length !== items.length) return false;
  for (let index = 0; index < items.length; index++) if (kept[index] !== items[index]) return false;
  return true;
}
