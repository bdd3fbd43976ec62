import fc from 'fast-check';
import { type Content, type MergePage, mergeContent, mergeText } from './three-way-merge';

const page = (id: string, markdown = '', children: MergePage[] = [], extra: Partial<MergePage> = {}): MergePage => ({
  id,
  title: id.toUpperCase(),
  slug: id,
  markdown,
  hidden: false,
  pages: children,
  ...extra,
});
const content = (...pages: MergePage[]): Content => ({ pages, files: [] });
const shape = (pages: readonly MergePage[]): unknown[] =>
  pages.map((p) => (p.pages.length ? [p.id, shape(p.pages)] : p.id));
const find = (pages: readonly MergePage[], id: string): MergePage | undefined => {
  for (const p of pages) {
    if (p.id === id) return p;
    const inner = find(p.pages, id);
    if (inner) return inner;
  }
  return undefined;
};

describe('three-way merge of page bodies', () => {
  it('keeps edits of different lines from both sides', () => {
    expect(mergeText('a\nb\nc\nd', 'A\nb\nc\nd', 'a\nb\nc\nD')).toEqual({ text: 'A\nb\nc\nD', conflict: false });
  });
  it('reports overlapping edits and keeps theirs', () => {
    expect(mergeText('a\nb', 'a\nours', 'a\ntheirs')).toEqual({ text: 'a\ntheirs', conflict: true });
  });
  it('is not a conflict when both sides made the same edit', () => {
    expect(mergeText('a\nb', 'a\nsame', 'a\nsame')).toEqual({ text: 'a\nsame', conflict: false });
  });
});

describe('three-way merge of content', () => {
  const base = content(page('a', 'one\ntwo\nthree'), page('b', 'bee'), page('c', 'sea', [page('c1', 'child')]));

  it('keeps a page added on each side', () => {
    const ours = content(...base.pages, page('o', 'ours'));
    const theirs = content(page('t', 'theirs'), ...base.pages);
    const merged = mergeContent(base, ours, theirs);
    expect(shape(merged.pages)).toEqual(['t', 'a', 'b', ['c', ['c1']], 'o']);
    expect(merged.conflicts).toEqual([]);
  });

  it('keeps edits of different pages, and of different lines of one page', () => {
    const ours = content(page('a', 'ONE\ntwo\nthree'), page('b', 'BEE'), base.pages[2]);
    const theirs = content(page('a', 'one\ntwo\nTHREE'), base.pages[1], page('c', 'SEA', [page('c1', 'child')]));
    const merged = mergeContent(base, ours, theirs);
    expect(find(merged.pages, 'a')!.markdown).toBe('ONE\ntwo\nTHREE');
    expect(find(merged.pages, 'b')!.markdown).toBe('BEE');
    expect(find(merged.pages, 'c')!.markdown).toBe('SEA');
    expect(merged.conflicts).toEqual([]);
  });

  it('keeps a page moved on one side and edited on the other', () => {
    const ours = content(
      page('a', 'one\ntwo\nthree'),
      page('b', 'bee'),
      page('c', 'sea', [page('c1', 'edited child')]),
    );
    const theirs = content(page('a', 'one\ntwo\nthree', [page('c1', 'child')]), page('b', 'bee'), page('c', 'sea'));
    const merged = mergeContent(base, ours, theirs);
    expect(shape(merged.pages)).toEqual([['a', ['c1']], 'b', 'c']);
    expect(find(merged.pages, 'c1')!.markdown).toBe('edited child');
    expect(merged.conflicts).toEqual([]);
  });

  it('reports overlapping edits with theirs winning, with the page path', () => {
    const ours = content(page('a', 'one\nOURS\nthree'), page('b', 'bee', [], { title: 'Ours' }), base.pages[2]);
    const theirs = content(page('a', 'one\nTHEIRS\nthree'), page('b', 'bee', [], { title: 'Theirs' }), base.pages[2]);
    const merged = mergeContent(base, ours, theirs);
    expect(find(merged.pages, 'a')!.markdown).toBe('one\nTHEIRS\nthree');
    expect(find(merged.pages, 'b')!.title).toBe('Theirs');
    expect(merged.conflicts).toEqual([
      { pageId: 'a', path: 'a', reason: 'content' },
      { pageId: 'b', path: 'b', reason: 'title' },
    ]);
  });

  it('deleted on one side and edited on the other: theirs wins, and it is reported', () => {
    const oursEdits = content(page('a', 'changed'), page('b', 'bee'), base.pages[2]);
    const theirsDeletes = content(page('b', 'bee'), base.pages[2]);
    const gone = mergeContent(base, oursEdits, theirsDeletes);
    expect(find(gone.pages, 'a')).toBeUndefined();
    expect(gone.conflicts).toEqual([{ pageId: 'a', path: 'a', reason: 'deleted' }]);
    const kept = mergeContent(base, theirsDeletes, oursEdits);
    expect(find(kept.pages, 'a')!.markdown).toBe('changed');
    expect(kept.conflicts).toEqual([{ pageId: 'a', path: 'a', reason: 'deleted' }]);
  });

  it('moves under a deleted parent go to the nearest surviving ancestor', () => {
    const ours = content(page('a', 'one\ntwo\nthree'), page('b', 'bee'));
    const theirs = content(
      page('a', 'one\ntwo\nthree'),
      page('b', 'bee'),
      page('c', 'sea', [page('c1', 'child', [page('new')])]),
    );
    const merged = mergeContent(base, ours, theirs);
    expect(shape(merged.pages)).toEqual(['a', 'b', 'new']);
    expect(merged.conflicts.map((c) => c.pageId)).toContain('new');
  });

  it('crossed moves that would make a cycle are resolved by theirs', () => {
    const flat = content(page('x'), page('y'));
    const ours = content(page('x', '', [page('y')]));
    const theirs = content(page('y', '', [page('x')]));
    const merged = mergeContent(flat, ours, theirs);
    expect(shape(merged.pages)).toEqual([['y', ['x']]]);
  });

  it('merges files by id', () => {
    const file = (id: string, name = id) => ({ id, name, size: 1 });
    const merged = mergeContent(
      { pages: [], files: [file('keep'), file('gone')] },
      { pages: [], files: [file('keep'), file('gone'), file('ours')] },
      { pages: [], files: [file('keep', 'renamed'), file('theirs')] },
    );
    expect(merged.files.map((f) => [f.id, f.name])).toEqual([
      ['keep', 'renamed'],
      ['ours', 'ours'],
      ['theirs', 'theirs'],
    ]);
    expect(merged.conflicts).toEqual([]);
  });
});

/** Random trees and random one-sided edit scripts, for the properties the merge promises. */
describe('three-way merge properties', () => {
  type Edit =
    | { kind: 'edit'; target: number; line: number; text: string }
    | { kind: 'add'; parent: number; id: string }
    | { kind: 'retitle'; target: number; title: string }
    | { kind: 'delete'; target: number }
    | { kind: 'move'; target: number; parent: number };

  const tree = fc.array(fc.nat(6), { minLength: 1, maxLength: 12 }).map((parents) => {
    const nodes: MergePage[] = [];
    const roots: MergePage[] = [];
    parents.forEach((p, index) => {
      const node = page(`p${index}`, ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'].join('\n'));
      const parent = p < index ? nodes[p] : undefined;
      (parent ? parent.pages : roots).push(node);
      nodes.push(node);
    });
    return content(...roots);
  });
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({
      kind: fc.constant('edit' as const),
      target: fc.nat(20),
      line: fc.nat(5),
      text: fc.string({ minLength: 1, maxLength: 5 }),
    }),
    fc.record({ kind: fc.constant('add' as const), parent: fc.nat(20), id: fc.uuid() }),
    fc.record({
      kind: fc.constant('retitle' as const),
      target: fc.nat(20),
      title: fc.string({ minLength: 1, maxLength: 5 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), target: fc.nat(20) }),
    fc.record({ kind: fc.constant('move' as const), target: fc.nat(20), parent: fc.nat(20) }),
  );

  const clone = (c: Content): Content => JSON.parse(JSON.stringify(c));
  const all = (pages: MergePage[]): MergePage[] => pages.flatMap((p) => [p, ...all(p.pages)]);
  const locate = (pages: MergePage[], id: string): MergePage[] | null => {
    if (pages.some((p) => p.id === id)) return pages;
    for (const p of pages) {
      const found = locate(p.pages, id);
      if (found) return found;
    }
    return null;
  };
  /** Applies edits to a copy; returns it with the ids it touched. */
  function apply(start: Content, edits: Edit[], side: string) {
    const next = clone(start) as { pages: MergePage[]; files: [] };
    const touched = new Set<string>();
    for (const e of edits) {
      const pages = all(next.pages);
      if (pages.length === 0) break;
      const target = pages[('target' in e ? e.target : e.parent) % pages.length];
      if (e.kind === 'edit') {
        const lines = target.markdown.split('\n');
        lines[e.line % lines.length] = `${side}:${e.text}`;
        target.markdown = lines.join('\n');
      } else if (e.kind === 'retitle') target.title = `${side}:${e.title}`;
      else if (e.kind === 'add') target.pages.push(page(`${side}-${e.id}`, 'new'));
      else if (e.kind === 'delete') {
        const siblings = locate(next.pages, target.id)!;
        siblings.splice(siblings.indexOf(target), 1);
        all([target]).forEach((p) => touched.add(p.id));
      } else {
        const destination = pages[e.parent % pages.length];
        if (all([target]).includes(destination)) continue;
        const siblings = locate(next.pages, target.id)!;
        siblings.splice(siblings.indexOf(target), 1);
        destination.pages.push(target);
      }
      touched.add(target.id);
    }
    return { content: next, touched };
  }

  it('merging with an unchanged side gives the other side', () => {
    fc.assert(
      fc.property(tree, fc.array(edit, { maxLength: 6 }), (base, edits) => {
        const changed = apply(base, edits, 't').content;
        expect(mergeContent(base, base, changed).pages).toEqual(changed.pages);
        expect(mergeContent(base, changed, base).pages).toEqual(changed.pages);
        expect(mergeContent(changed, changed, changed).pages).toEqual(changed.pages);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps every edit made on one side only, flags shared changes, and always builds a valid tree', () => {
    fc.assert(
      fc.property(tree, fc.array(edit, { maxLength: 5 }), fc.array(edit, { maxLength: 5 }), (base, oe, te) => {
        const ours = apply(base, oe, 'o');
        const theirs = apply(base, te, 't');
        const merged = mergeContent(base, ours.content, theirs.content);
        const ids = all(merged.pages).map((p) => p.id);
        expect(new Set(ids).size).toBe(ids.length);
        const flagged = new Set(merged.conflicts.map((c) => c.pageId));
        const byId = new Map(all(merged.pages).map((p) => [p.id, p]));
        const oursById = new Map(all(ours.content.pages as MergePage[]).map((p) => [p.id, p]));
        const theirsById = new Map(all(theirs.content.pages as MergePage[]).map((p) => [p.id, p]));
        // a page only the change request touched is exactly as the change request has it (or it is flagged)
        for (const id of theirs.touched) {
          if (ours.touched.has(id) || flagged.has(id)) continue;
          const want = theirsById.get(id);
          if (!want) expect(byId.has(id)).toBe(false);
          else
            expect({ title: byId.get(id)?.title, markdown: byId.get(id)?.markdown }).toEqual({
              title: want.title,
              markdown: want.markdown,
            });
        }
        for (const id of ours.touched) {
          if (theirs.touched.has(id) || flagged.has(id)) continue;
          const want = oursById.get(id);
          if (!want) expect(byId.has(id)).toBe(false);
          else
            expect({ title: byId.get(id)?.title, markdown: byId.get(id)?.markdown }).toEqual({
              title: want.title,
              markdown: want.markdown,
            });
        }
        // a page both sides still have: never silently losing theirs' value when both changed it
        for (const [id, mine] of byId) {
          const a = oursById.get(id);
          const b = theirsById.get(id);
          if (a && b && a.title !== b.title && mine.title !== b.title) expect(mine.title).toBe(a.title);
          if (a && b && flagged.has(id) === false && a.markdown !== b.markdown) {
            const baseMd = all(base.pages as MergePage[]).find((p) => p.id === id)?.markdown;
            if (a.markdown !== baseMd && b.markdown !== baseMd) expect(mine.markdown).not.toBe(a.markdown);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
