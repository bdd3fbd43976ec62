import { type Nodes } from 'mdast';
import { type ContentRef, refOf } from './json-document';
import { parseMarkdown } from './markdown-to-document';

/** Markdown bodies seen recently, with their references: most pages do not change from one revision to the next. */
const recent = new Map<string, ContentRef[]>();
const RECENT_MAX = 5_000;
const CACHED_BODY_MAX = 100_000;

/**
 * Every kind of link leaves one of these marks: `](` (inline links and images), `]:` (the definition a reference
 * link needs), `<scheme:` (autolinks), `http://`, `https://`, `www.` and `@` (GitHub's bare URLs and e-mail
 * addresses). A body with none of them has no link, and is not parsed (the parse is what costs).
 */
const MAY_LINK = /\]\(|\]:|<[a-z][a-z0-9+.-]*:|https?:\/\/|www\.|@/i;

function collect(node: Nodes, into: ContentRef[]): void {
  if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
    if (node.url.length > 0) into.push(refOf(node.url));
  }
  if ('children' in node) for (const child of node.children as Nodes[]) collect(child, into);
}

/**
 * The references of a markdown body, in the order they appear: links, images and link definitions, as content
 * references (`/pages/<id>`, `/files/<id>`, `#anchor`, or a URL). The same target twice is kept once.
 */
export function referencesOf(markdown: string): ContentRef[] {
  const known = recent.get(markdown);
  if (known) return known;
  const found: ContentRef[] = [];
  if (MAY_LINK.test(markdown)) collect(parseMarkdown(markdown), found);
  const seen = new Set<string>();
  const unique = found.filter((ref) => {
    const key = JSON.stringify(ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (markdown.length <= CACHED_BODY_MAX) {
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
    recent.set(markdown, unique);
  }
  return unique;
}
