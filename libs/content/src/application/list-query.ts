import {
  type Doc,
  type Filter,
  type ListQuery,
  type ListResponse,
  type PageCursorCodec,
  type ReadStore,
  type SortSpec,
  readPage,
} from '@app/kernel';
import { type DefaultLevel, type RoleOrGuest } from '@app/kernel/domain';
import { type ContentAccess, type ContentViewer } from './content-access';

/**
 * One page of collections or spaces the viewer may see, each presented with the viewer's role on it. The
 * visibility filter is part of the query, so `count` counts only what the viewer may see.
 */
export async function listVisible<D extends Doc & { defaultLevel: DefaultLevel; parent: string | null }, T>(
  store: ReadStore,
  cursors: PageCursorCodec,
  access: ContentAccess,
  viewer: ContentViewer,
  request: { collection: string; scope: string; filter: Filter; sort: SortSpec; query: ListQuery },
  present: (doc: D, role: RoleOrGuest) => T,
): Promise<ListResponse<T>> {
  const visible = await access.visibleFilter(viewer);
  const filter: Filter = visible ? { ...request.filter, $or: visible.$or } : request.filter;
  const page = await readPage<D, D>(store, cursors, { ...request, filter }, (doc) => doc);
  // The role depends only on the item's own level and its parent chain: work it out once per pair on a page,
  // and wait for all of them at once.
  const slots = new Map<string, number>();
  const pending: Promise<RoleOrGuest>[] = [];
  const slotOf = page.items.map((doc) => {
    // An object shared on its own may have a role its siblings do not.
    const own = access.grantedOn(viewer, doc.id) ? `\u0000${doc.id}` : '';
    const key = `${String(doc.defaultLevel)}\u0000${doc.parent ?? ''}${own}`;
    let slot = slots.get(key);
    if (slot === undefined) {
      slots.set(key, (slot = pending.length));
      pending.push(access.roleOn(viewer, doc));
    }
    return slot;
  });
  const roles = await Promise.all(pending);
  const items = page.items.map((doc, at) => present(doc, roles[slotOf[at]]));
  return { ...page, items };
}
