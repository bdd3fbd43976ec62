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
  return plainSectionsOf(markdown, pageTitle) ?? parsedSectionsOf(markdown, pageTitle);
}

export function parsedSectionsOf(markdown: string, pageTitle: string): IndexedSection[] {
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
 * Markdown the line reader below reads exactly as the parser would: no HTML, entities, escapes, tables, block
 * quotes, indented code, setext headings, thematic breaks, hard breaks or reference links. Anything else (rare in
 * pages) goes through the full parser. Parsing is most of the cost of indexing a page (a page of the bench
 * corpus: about 2 ms parsed, 0.1 ms read by lines).
 */
const NOT_PLAIN = [
  /[<>\\|&]/,
  /^( {4,}|\t| {1,3}[`~]{3})/m,
  /^ {0,3}(=+|-+) *$/m,
  /^ {0,3}([-*_])( *\1){2,} *$/m,
  / {2,}\n/,
  /^#+[^#\s]/m,
];
const FENCE = /^(`{3,}|~{3,})([^`]*)$/;
const HEADING = /^(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s+(.*))?$/;

/** The text of a line of inline markdown, or null when it holds markup the line reader does not know. */
function inlineText(line: string): string | null {
  const spans: string[] = [];
  let text = line.replace(/(?<!`)`([^`\n]+)`(?!`)/g, (_, code: string) => {
    const inner =
      / .*[^ ].* /.test(` ${code} `) && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
    spans.push(inner);
    return `\u0000${spans.length - 1}\u0000`;
  });
  text = text
    .replace(/!\[([^[\]\n]*)\]\([^()\s]*\)/g, '$1')
    .replace(/\[([^[\]\n]*)\]\([^()\s]*\)/g, '$1')
    .replace(/~~(\S(?:[^~\n]*\S)?)~~/g, '$1');
  for (let i = 0; i < 2; i++) {
    text = text
      .replace(/\*\*(\S(?:[^*\n]*\S)?)\*\*/g, '$1')
      .replace(/\*(\S(?:[^*\n]*\S)?)\*/g, '$1')
      .replace(/(?<![\p{L}\p{N}_])__(\S(?:[^_\n]*\S)?)__(?![\p{L}\p{N}_])/gu, '$1')
      .replace(/(?<![\p{L}\p{N}_])_(\S(?:[^_\n]*\S)?)_(?![\p{L}\p{N}_])/gu, '$1');
  }
  if (/[*~`[\]]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/u.test(text)) return null;
  return text.replace(/\u0000(\d+)\u0000/g, (_, n: string) => spans[Number(n)]);
}

/** `sectionsOf` by lines, for plain markdown (see NOT_PLAIN); null when the markdown is not plain. */
export function plainSectionsOf(markdown: string, pageTitle: string): IndexedSection[] | null {
  if (NOT_PLAIN.some((pattern) => pattern.test(markdown))) return null;
  const sections: IndexedSection[] = [];
  const used = new Set<string>();
  let current: { id: string; title: string; parts: string[] } = { id: '', title: pageTitle, parts: [] };
  let block: string[] = [];
  let fence: { marker: string; lines: string[] } | null = null;
  const flush = () => {
    if (block.length > 0) {
      const part = block.filter(Boolean).join('\n');
      if (part !== '') current.parts.push(part);
    }
    block = [];
  };
  const close = () => {
    const body = current.parts.join('\n').trim();
    if (current.id !== '' || body !== '') sections.push({ id: current.id, title: current.title, body });
  };
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    if (fence) {
      const marker = fence.marker;
      if (line.trimEnd().startsWith(marker) && /^([`~])\1*$/.test(line.trim()) && line.trim()[0] === marker[0]) {
        if (fence.lines.join('\n') !== '') current.parts.push(fence.lines.join('\n'));
        fence = null;
      } else fence.lines.push(line);
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      flush();
      fence = { marker: opening[1], lines: [] };
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      close();
      const title = inlineText((heading[2] ?? '').trim());
      if (title === null) return null;
      const base = slugify(title.trim());
      let id = base;
      for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      current = { id, title: title.trim(), parts: [] };
      continue;
    }
    const item = ITEM.exec(line);
    const text = inlineText((item ? (item[1] ?? '') : line).trim());
    if (text === null) return null;
    block.push(text);
  }
  if (fence && fence.lines.join('\n') !== '') current.parts.push(fence.lines.join('\n'));
  flush();
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
