import { createHash } from 'node:crypto';
import { type Nodes } from 'mdast';
import { parseMarkdown } from '@app/documents';
import { type IndexedPage, type IndexedPageSummary, type IndexedSection, type SearchIndexOp } from '@app/kernel';
import { type PageNode, allPages, slugify } from '../domain';

/** Nodes whose children flow as one line of text; the children of any other parent are separate lines. */
const PHRASING = new Set([
  'paragraph',
  'heading',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
  'tableCell',
]);

/** The plain text of a markdown node: words of separate blocks, list items or cells never run together. */
function text(node: Nodes): string {
  if (node.type === 'html') return '';
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if ('value' in node) return node.value;
  if (!('children' in node)) return '';
  const children = (node.children as Nodes[]).map(text);
  return PHRASING.has(node.type) ? children.join('') : children.filter(Boolean).join('\n');
}

/**
 * A page's sections: the parts of its markdown under each heading, as plain text. The text before the first
 * heading is a section titled like the page (with an empty id); a heading's section runs to the next heading of
 * any level. Section ids are the headings' anchors, made unique in the page.
 */
export function sectionsOf(markdown: string, pageTitle: string): IndexedSection[] {
  const sections: IndexedSection[] = [];
  const used = new Set<string>();
  let current: { id: string; title: string; parts: string[] } = { id: '', title: pageTitle, parts: [] };
  const close = () => {
    const body = current.parts.join('\n').trim();
    if (current.id !== '' || body !== '') sections.push({ id: current.id, title: current.title, body });
  };
  for (const node of parseMarkdown(markdown).children) {
    if (node.type === 'heading') {
      close();
      const title = text(node).trim();
      const base = slugify(title);
      let id = base;
      for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      current = { id, title, parts: [] };
    } else if (node.type !== 'definition') {
      const part = text(node);
      if (part !== '') current.parts.push(part);
    }
  }
  close();
  return sections;
}

/**
 * A page's digest: the same title, path and markdown always give the same digest. It is taken from the source, so
 * telling an unchanged page costs a hash, not a markdown parse.
 */
function digestOf(page: PageNode): string {
  return createHash('sha256')
    .update(JSON.stringify([page.title, page.path, page.markdown]))
    .digest('base64url');
}

/** What is indexed of a page. */
function indexedPage(page: PageNode, digest: string): Omit<IndexedPage, 'changedAt'> {
  return { id: page.id, title: page.title, path: page.path, sections: sectionsOf(page.markdown, page.title), digest };
}

/**
 * The index operations that make a space's indexed pages those of its live revision: pages whose indexed content
 * did not change are left alone (and keep their `changedAt`); new or changed ones are written as changed at
 * `changedAt`; pages gone from the revision are removed. Hidden pages are indexed like any other.
 */
export function reindexSpace(
  spaceId: string,
  pages: readonly PageNode[],
  indexed: readonly IndexedPageSummary[],
  changedAt: string,
): SearchIndexOp[] {
  const before = new Map(indexed.map((page) => [page.id, page]));
  const ops: SearchIndexOp[] = [];
  const kept = new Set<string>();
  for (const node of allPages(pages)) {
    const digest = digestOf(node);
    kept.add(node.id);
    if (before.get(node.id)?.digest === digest) continue;
    ops.push({ kind: 'putPage', spaceId, page: { ...indexedPage(node, digest), changedAt } });
  }
  for (const id of before.keys()) if (!kept.has(id)) ops.push({ kind: 'deletePage', spaceId, pageId: id });
  return ops;
}
