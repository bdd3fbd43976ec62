/**
 * The search-index port: a full-text index of the live pages of spaces, kept by the content context's search
 * projection and read by its search queries. Both adapters (SQLite FTS5, MongoDB text index) pass the contract
 * suite in test/contract/search-index.contract-spec.ts.
 *
 * The index knows spaces and pages, never organizations or roles: a query names the spaces the caller may read,
 * and only those are searched (so a page of results is full and `total` exact).
 */
export const SEARCH_INDEX = Symbol('SEARCH_INDEX');

/** A part of a page's text under one heading (the text before the first heading has the page's title). */
export interface IndexedSection {
  /** The heading's anchor, unique in the page (empty for the text before the first heading). */
  id: string;
  title: string;
  /** Plain text (no markdown). */
  body: string;
}

export interface IndexedPage {
  id: string;
  title: string;
  path: string;
  sections: IndexedSection[];
  /** When the page's indexed content last changed in the live content (ISO date-time): the recency of ranking. */
  changedAt: string;
  /** A digest of what was indexed, so that a writer can tell an unchanged page and leave it alone. */
  digest: string;
}

/** What a writer needs to know of an indexed page to decide whether it changed. */
export interface IndexedPageSummary {
  id: string;
  digest: string;
  changedAt: string;
}

export type SearchIndexOp =
  | { kind: 'putPage'; spaceId: string; page: IndexedPage }
  | { kind: 'deletePage'; spaceId: string; pageId: string }
  | { kind: 'deleteSpace'; spaceId: string };

export interface SearchRequest {
  /** The query as the user typed it: any text (it is never read as index syntax). */
  text: string;
  /** The only spaces searched. */
  spaces: readonly string[];
  /** `page`: one hit per page; `space`: one hit per space (its best pages inside). */
  group: 'page' | 'space';
  offset: number;
  limit: number;
  /** With `group: 'space'`, how many of a space's best pages are listed. */
  pagesPerSpace?: number;
}

/** A matching section, with a plain-text snippet around the match where matched words are marked. */
export interface SectionHit {
  id: string;
  title: string;
  snippet: string;
}

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  /** Higher is better; comparable only within one answer. */
  score: number;
  /** Only the sections that match (empty when only the page's title does). */
  sections: SectionHit[];
}

export interface SpaceHit {
  spaceId: string;
  score: number;
  pages: PageHit[];
}

export interface SearchAnswer<H> {
  hits: H[];
  /** Pages (or spaces) matching, whatever the offset and limit. */
  total: number;
}

/** The marks put around matched words in snippets. */
export const MATCH_OPEN = '**';
export const MATCH_CLOSE = '**';

/**
 * Indexes are named, so that a projection can rebuild into one aside and then put it in place of the one in
 * service (`replaceIndex`), as read-store collections are.
 */
export interface SearchIndex {
  ensureIndex(index: string): Promise<void>;
  /** What is indexed of a space's pages. */
  pagesOf(index: string, spaceId: string): Promise<IndexedPageSummary[]>;
  /** Applies the operations in order, in one transaction where the store allows it. */
  write(index: string, ops: readonly SearchIndexOp[]): Promise<void>;
  searchPages(index: string, request: SearchRequest & { group: 'page' }): Promise<SearchAnswer<PageHit>>;
  searchSpaces(index: string, request: SearchRequest & { group: 'space' }): Promise<SearchAnswer<SpaceHit>>;
  dropIndex(index: string): Promise<void>;
  /** Gives `target` exactly the content of `source` and leaves `source` empty, in one step readers cannot see. */
  replaceIndex(target: string, source: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
