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
