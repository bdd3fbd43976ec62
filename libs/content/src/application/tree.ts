import { type FindCursor, type FindResult, type ReadStore } from '@app/kernel';
import { COLLECTIONS, type CollectionDoc, SPACES, type SpaceDoc } from './read-models';

const PAGE = 1000;

async function childrenOf<D extends { id: string }>(
  store: ReadStore,
  collection: string,
  parent: string,
): Promise<D[]> {
  const out: D[] = [];
  let after: FindCursor | undefined;
  do {
    const page: FindResult<D> = await store.find<D>(collection, {
      filter: { parent },
      sort: [['sortKey', 1]],
      limit: PAGE,
      after,
    });
    out.push(...page.items);
    after = page.next;
  } while (after);
  return out;
}

/** Everything under a collection: its sub-collections (parents before children) and the spaces in any of them. */
export async function contentsOf(
  store: ReadStore,
  collectionId: string,
): Promise<{ collections: CollectionDoc[]; spaces: SpaceDoc[] }> {
  const collections: CollectionDoc[] = [];
  const spaces: SpaceDoc[] = [];
  const queue = [collectionId];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const current = queue.shift()!;
    spaces.push(...(await childrenOf<SpaceDoc>(store, SPACES, current)));
    for (const child of await childrenOf<CollectionDoc>(store, COLLECTIONS, current)) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      collections.push(child);
      queue.push(child.id);
    }
  }
  return { collections, spaces };
}
