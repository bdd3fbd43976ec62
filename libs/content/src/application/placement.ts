import { type Doc, type ReadStore, ValidationFailed } from '@app/kernel';
import { COLLECTIONS, SPACES } from './read-models';

/** A sibling to place something next to: `{type: 'space', space}` or `{type: 'collection', collection}`. */
export interface ContentPointer {
  type: 'space' | 'collection';
  space?: string;
  collection?: string;
}

export interface ContentPosition {
  before?: ContentPointer;
  after?: ContentPointer;
}

interface Ordered extends Doc {
  sortKey: number;
}

/**
 * The sort key that puts an item at `position` among the children of `parent` (collections and spaces share one
 * order): at the end by default, or just before or after a sibling.
 */
export async function placeAmong(
  store: ReadStore,
  organizationId: string,
  parent: string | null,
  position: ContentPosition | undefined,
  moving?: string,
): Promise<number> {
  const siblings = { organizationId, parent };
  const neighbour = async (direction: 1 | -1, beyond?: number): Promise<number | undefined> => {
    let best: number | undefined;
    for (const collection of [COLLECTIONS, SPACES]) {
      const filter = {
        ...siblings,
        ...(collection === SPACES ? { deleted: false } : {}),
        ...(beyond === undefined ? {} : { sortKey: direction === 1 ? { $gt: beyond } : { $lt: beyond } }),
        ...(moving ? { id: { $ne: moving } } : {}),
      };
      const found = await store.find<Ordered>(collection, { filter, sort: [['sortKey', direction]], limit: 1 });
      const key = found.items[0]?.sortKey;
      if (key !== undefined && (best === undefined || (direction === 1 ? key < best : key > best))) best = key;
    }
    return best;
  };
  const pointer = position?.before ?? position?.after;
  if (!pointer) {
    const last = await neighbour(-1);
    return last === undefined ? 0 : last + 1;
  }
  const field = position?.before ? 'position.before' : 'position.after';
  const id = pointer.type === 'space' ? pointer.space : pointer.collection;
  if (!id) throw new ValidationFailed(`${field}: name the ${pointer.type} to place it next to`);
  if (id === moving) throw new ValidationFailed(`${field}: cannot place an item next to itself`);
  const sibling = await store.get<Ordered & { organizationId: string; parent: string | null; deleted?: boolean }>(
    pointer.type === 'space' ? SPACES : COLLECTIONS,
    id,
  );
  if (!sibling || sibling.organizationId !== organizationId || (sibling.parent ?? null) !== parent || sibling.deleted) {
    throw new ValidationFailed(`${field}: ${pointer.type} ${id} is not among the destination's items`);
  }
  if (position?.before) {
    const previous = await neighbour(-1, sibling.sortKey);
    return previous === undefined ? sibling.sortKey - 1 : (previous + sibling.sortKey) / 2;
  }
  const next = await neighbour(1, sibling.sortKey);
  return next === undefined ? sibling.sortKey + 1 : (sibling.sortKey + next) / 2;
}
