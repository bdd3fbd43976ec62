import { diff3Merge } from 'node-diff3';

/**
 * The three-way merge of a space's content: page trees merged page by page (matched by id), page bodies line by
 * line with diff3, files by id. `base` is the common ancestor, `ours` the space's current content, `theirs` the
 * change request's. What only one side changed is taken from that side; where both changed the same thing
 * differently, the change request's side wins and the page is reported as a conflict, so nothing is lost
 * silently. The merge is deterministic and never produces a broken tree.
 */

export interface MergePage {
  id: string;
  title: string;
  slug?: string;
  description?: string;
  emoji?: string;
  markdown: string;
  hidden: boolean;
  pages: MergePage[];
}

export interface MergeFile {
  id: string;
  [key: string]: unknown;
}

export interface Content<F extends MergeFile = MergeFile> {
  pages: readonly MergePage[];
  files: readonly F[];
}

export type ConflictReason = 'content' | 'title' | 'attributes' | 'moved' | 'deleted' | 'file';

export interface MergeConflict {
  pageId: string;
  path: string;
  reason: ConflictReason;
}

export interface MergeOutcome<F extends MergeFile = MergeFile> {
  pages: MergePage[];
  files: F[];
  conflicts: MergeConflict[];
}

const ATTRIBUTES = ['title', 'slug', 'description', 'emoji', 'hidden'] as const;

interface Placed {
  page: MergePage;
  parent: string | null;
  /** The sibling just before it (null: first). */
  previous: string | null;
  /** Its path from the root (slugs, else ids), for conflict reports. */
  path: string;
}

function flatten(pages: readonly MergePage[]): Map<string, Placed> {
  const out = new Map<string, Placed>();
  const walk = (list: readonly MergePage[], parent: string | null, parentPath: string) => {
    list.forEach((page, index) => {
      const path = parentPath ? `${parentPath}/${page.slug ?? page.id}` : (page.slug ?? page.id);
      out.set(page.id, { page, parent, previous: index > 0 ? list[index - 1].id : null, path });
      walk(page.pages, page.id, path);
    });
  };
  walk(pages, null, '');
  return out;
}

/** Three-way choice of one value: a change on one side wins; different changes on both sides are a conflict. */
function pick<T>(base: T, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (ours === theirs) return { value: ours, conflict: false };
  if (ours === base) return { value: theirs, conflict: false };
  if (theirs === base) return { value: ours, conflict: false };
  return { value: theirs, conflict: true };
}

/** Line-based diff3 of a page body; on overlapping edits, theirs. */
export function mergeText(base: string, ours: string, theirs: string): { text: string; conflict: boolean } {
  if (ours === theirs || theirs === base) return { text: ours, conflict: false };
  if (ours === base) return { text: theirs, conflict: false };
  const regions = diff3Merge(ours.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const region of regions) {
    if (region.conflict) return { text: theirs, conflict: true };
    if (region.ok) lines.push(...region.ok);
  }
  return { text: lines.join('\n'), conflict: false };
}

const edited = (a: MergePage, b: MergePage) => a.markdown !== b.markdown || ATTRIBUTES.some((key) => a[key] !== b[key]);

export function mergeContent<F extends MergeFile>(
  base: Content<F>,
  ours: Content<F>,
  theirs: Content<F>,
): MergeOutcome<F> {
  const b = flatten(base.pages);
  const o = flatten(ours.pages);
  const t = flatten(theirs.pages);
  const conflicts = new Map<string, ConflictReason>();
  const flag = (id: string, reason: ConflictReason) => {
    if (!conflicts.has(id)) conflicts.set(id, reason);
  };

  // 1. which pages survive, and their fields
  const ids = [...new Set([...o.keys(), ...t.keys(), ...b.keys()])];
  const kept = new Map<string, MergePage>();
  const placement = new Map<string, { parent: string | null; side: 'ours' | 'theirs' }>();
  for (const id of ids) {
    const inBase = b.get(id);
    const inOurs = o.get(id);
    const inTheirs = t.get(id);
    if (inOurs && inTheirs) {
      const basePage = inBase?.page;
      const page: MergePage = { id, title: '', markdown: '', hidden: false, pages: [] };
      for (const key of ATTRIBUTES) {
        const chosen = basePage
          ? pick<unknown>(basePage[key], inOurs.page[key], inTheirs.page[key])
          : pick<unknown>(inOurs.page[key], inOurs.page[key], inTheirs.page[key]);
        if (chosen.value !== undefined) (page as unknown as Record<string, unknown>)[key] = chosen.value;
        if (chosen.conflict || (!basePage && inOurs.page[key] !== inTheirs.page[key])) {
          flag(id, key === 'title' ? 'title' : 'attributes');
        }
      }
      const text = mergeText(basePage?.markdown ?? '', inOurs.page.markdown, inTheirs.page.markdown);
      page.markdown = text.text;
      if (text.conflict) flag(id, 'content');
      kept.set(id, page);
      // placement: a move on one side wins; moves to different places on both sides are a conflict
      const baseParent = inBase ? inBase.parent : inOurs.parent;
      const parent = pick(baseParent, inOurs.parent, inTheirs.parent);
      if (parent.conflict) flag(id, 'moved');
      const theirsPlaces =
        inTheirs.parent !== baseParent ||
        (inOurs.parent === baseParent &&
          inBase?.previous !== inTheirs.previous &&
          inOurs.previous === inBase?.previous);
      placement.set(id, { parent: parent.value, side: theirsPlaces ? 'theirs' : 'ours' });
    } else if (!inBase) {
      // added on one side
      const side = inTheirs ? 'theirs' : 'ours';
      const placed = (inTheirs ?? inOurs)!;
      kept.set(id, { ...placed.page, pages: [] });
      placement.set(id, { parent: placed.parent, side });
    } else if (inOurs && !inTheirs) {
      // the change request deleted it: it goes, and if the space changed it meanwhile, that is reported
      if (edited(inOurs.page, inBase.page) || inOurs.parent !== inBase.parent) flag(id, 'deleted');
    } else if (inTheirs && !inOurs) {
      // the space deleted it: it stays deleted, unless the change request changed it (theirs wins)
      if (edited(inTheirs.page, inBase.page) || inTheirs.parent !== inBase.parent) {
        flag(id, 'deleted');
        kept.set(id, { ...inTheirs.page, pages: [] });
        placement.set(id, { parent: inTheirs.parent, side: 'theirs' });
      }
    }
  }

  // 2. a parent that did not survive: the nearest surviving ancestor, on the side that placed the page
  const ancestorOf = (id: string | null, side: 'ours' | 'theirs'): string | null => {
    const chains = side === 'theirs' ? [t, o, b] : [o, t, b];
    let current = id;
    for (let guard = 0; current !== null && !kept.has(current) && guard < 10_000; guard++) {
      const holder = chains.find((map) => map.has(current!));
      current = holder ? holder.get(current)!.parent : null;
    }
    return current;
  };
  for (const [id, place] of placement) {
    if (place.parent !== null && !kept.has(place.parent)) {
      placement.set(id, { ...place, parent: ancestorOf(place.parent, place.side) });
      flag(id, 'deleted');
    }
  }

  // 3. moves on both sides can make a cycle (A under B here, B under A there): theirs' placement, else the root
  for (const id of kept.keys()) {
    const seen = new Set<string>();
    let current: string | null = id;
    while (current !== null && !seen.has(current)) {
      seen.add(current);
      current = placement.get(current)!.parent;
    }
    if (current === null) continue;
    // `current` is on a cycle: put back where theirs has it a page of the cycle that ours moved, else lift
    // `current` to the root
    const cycle: string[] = [];
    for (let walk: string | null = current; walk !== null && !cycle.includes(walk);) {
      cycle.push(walk);
      walk = placement.get(walk)!.parent;
    }
    const theirsParent = (id: string) => {
      const parent = t.get(id)?.parent ?? null;
      return parent !== null && kept.has(parent) ? parent : null;
    };
    const reachesItself = (id: string, parent: string | null) => {
      for (let walk = parent, guard = 0; walk !== null && guard < 10_000; guard++) {
        if (walk === id) return true;
        walk = placement.get(walk)!.parent;
      }
      return false;
    };
    const movable = cycle.find(
      (id) => placement.get(id)!.parent !== theirsParent(id) && !reachesItself(id, theirsParent(id)),
    );
    const chosen = movable ?? current;
    placement.set(chosen, { parent: movable ? theirsParent(chosen) : null, side: 'theirs' });
    for (const id of cycle) flag(id, 'moved');
  }

  // 4. sibling order: ours' order, with the pages the change request placed after their neighbour there
  const childrenOf = new Map<string | null, string[]>();
  for (const [id, place] of placement) {
    const list = childrenOf.get(place.parent) ?? [];
    list.push(id);
    childrenOf.set(place.parent, list);
  }
  const order = (parent: string | null): string[] => {
    const members = new Set(childrenOf.get(parent) ?? []);
    const listed = (map: Map<string, Placed>, roots: readonly MergePage[]) => {
      const list = parent === null ? roots : (map.get(parent)?.page.pages ?? []);
      return list.map((page) => page.id).filter((id) => members.has(id));
    };
    const result = listed(o, ours.pages).filter((id) => placement.get(id)!.side === 'ours');
    const placedByTheirs = listed(t, theirs.pages).filter((id) => !result.includes(id));
    for (const id of placedByTheirs) {
      const list = parent === null ? theirs.pages : t.get(parent)!.page.pages;
      const index = list.findIndex((page) => page.id === id);
      let at = 0;
      for (let i = index - 1; i >= 0; i--) {
        const found = result.indexOf(list[i].id);
        if (found >= 0) {
          at = found + 1;
          break;
        }
      }
      result.splice(at, 0, id);
    }
    for (const id of members) if (!result.includes(id)) result.push(id);
    return result;
  };
  const build = (parent: string | null): MergePage[] =>
    order(parent).map((id) => ({ ...kept.get(id)!, pages: build(id) }));
  const pages = build(null);

  // 5. files by id, the same way
  const fileMap = (files: readonly F[]) => new Map(files.map((file) => [file.id, file]));
  const fb = fileMap(base.files);
  const fo = fileMap(ours.files);
  const ft = fileMap(theirs.files);
  const same = (x: F | undefined, y: F | undefined) => JSON.stringify(x) === JSON.stringify(y);
  const files: F[] = [];
  const fileConflicts: MergeConflict[] = [];
  const fileIds = [...new Set([...fo.keys(), ...ft.keys()])];
  for (const id of fileIds) {
    const [fileBase, fileOurs, fileTheirs] = [fb.get(id), fo.get(id), ft.get(id)];
    if (fileOurs && fileTheirs) {
      if (same(fileOurs, fileTheirs) || same(fileTheirs, fileBase)) files.push(fileOurs);
      else {
        files.push(fileTheirs);
        if (!same(fileOurs, fileBase))
          fileConflicts.push({ pageId: id, path: String(fileTheirs.name ?? id), reason: 'file' });
      }
    } else if (!fileBase) files.push((fileOurs ?? fileTheirs)!);
    else if (fileTheirs && !same(fileTheirs, fileBase)) {
      files.push(fileTheirs);
      fileConflicts.push({ pageId: id, path: String(fileTheirs.name ?? id), reason: 'file' });
    } else if (fileOurs && !same(fileOurs, fileBase)) {
      fileConflicts.push({ pageId: id, path: String(fileOurs.name ?? id), reason: 'file' });
    }
  }

  // 6. conflicts with their path in the result, or where the page last was
  const resultPaths = flatten(pages);
  const pageConflicts = [...conflicts].map(([pageId, reason]) => ({
    pageId,
    path: (resultPaths.get(pageId) ?? t.get(pageId) ?? o.get(pageId) ?? b.get(pageId))!.path,
    reason,
  }));
  return { pages, files, conflicts: [...pageConflicts, ...fileConflicts] };
}
