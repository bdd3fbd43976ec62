// Only types come from the driver at load time: it is loaded when a MongoSearchIndex is made.
import type { AnyBulkWriteOperation, Collection, Db, Document, MongoClient } from 'mongodb';
import {
  type IndexedPageSummary,
  MATCH_CLOSE,
  MATCH_OPEN,
  type PageHit,
  type SearchAnswer,
  type SearchIndex,
  type SearchIndexOp,
  type SearchRequest,
  type SpaceHit,
  databaseNameOf,
} from '@app/kernel';
import { type SearchTerm, parseQuery } from './query-text';

export interface MongoSearchIndexOptions {
  /** `mongodb://…/<database>`; the database defaults to `quire` when the URL names none. */
  url: string;
  serverSelectionTimeoutMs?: number;
}

const NAME = /^[a-z][a-z0-9_]*$/;
const TITLE = 3;
const HEADING = 2;
const BODY = 1;
const SNIPPET_WORDS = 24;
const DEFAULT_PAGES_PER_SPACE = 5;

/** A page as stored: `_id` is `<space>\u0000<page>`. */
interface PageDoc extends Document {
  _id: string;
  space: string;
  page: string;
  title: string;
  path: string;
  changedAt: string;
  digest: string;
}

/** One indexed text of a page (its title, a section's heading or body); `_id` is `<page _id>\u0000<n>`. */
interface RowDoc extends Document {
  _id: string;
  space: string;
  page: string;
  kind: number;
  /** The section the row belongs to (absent for the title row). */
  section?: { ord: number; id: string; title: string; body: string };
  text: string;
  /** The row's words folded (lower case, no diacritics): prefixes are matched on these, past any stem. */
  words: string[];
}

interface Connection {
  client: MongoClient;
  db: Db;
}

/** Lower case without diacritics, as the text index folds words. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const pageKey = (space: string, page: string) => `${space}\u0000${page}`;

/** What `$text` is given for a term: a word (stemmed by the index) or a quoted phrase. */
function textSearchOf(term: SearchTerm): string {
  return term.kind === 'phrase' ? `"${term.words.join(' ')}"` : term.word;
}

/**
 * Marks the words of a text that a query's words would have found (same beginning, stems being unknown here),
 * and cuts a window of words around the first one. The SQLite adapter asks FTS5 for its snippets instead.
 */
export function snippetOf(text: string, terms: SearchTerm[]): string {
  const roots = terms
    .flatMap((term) => (term.kind === 'phrase' ? term.words : [term.word]))
    .map((word) => fold(word))
    .map((word) => (word.length > 4 ? word.slice(0, Math.max(4, word.length - 3)) : word));
  const tokens = [...text.matchAll(WORD)];
  const marked = tokens.map((token) => roots.some((root) => fold(token[0]).startsWith(root)));
  const first = Math.max(0, marked.indexOf(true));
  const from = tokens.length <= SNIPPET_WORDS ? 0 : Math.max(0, Math.min(first - 4, tokens.length - SNIPPET_WORDS));
  const to = Math.min(tokens.length, from + SNIPPET_WORDS);
  let out = from > 0 ? '…' : '';
  let cursor = from > 0 ? tokens[from].index : 0;
  for (let i = from; i < to; i++) {
    const token = tokens[i];
    out += text.slice(cursor, token.index);
    out += marked[i] ? `${MATCH_OPEN}${token[0]}${MATCH_CLOSE}` : token[0];
    cursor = token.index + token[0].length;
  }
  out += to < tokens.length ? `${text.slice(cursor, tokens[to].index).trimEnd()}…` : text.slice(cursor);
  return out;
}

interface Ranked {
  key: string;
  space: string;
  page: string;
  terms: number;
  field: number;
  hits: number;
  changedAt: string;
}

const compare = (a: Ranked, b: Ranked) =>
  b.terms - a.terms ||
  b.field - a.field ||
  (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0) ||
  b.hits - a.hits ||
  (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The production search index on MongoDB: a text index (English stemming, case and diacritic folding, phrases)
 * over one document per indexed text, and an ascending index over the texts' folded words for prefixes. Each term
 * of a query is one indexed query restricted to the allowed spaces; the ranking (terms matched, strongest field,
 * recency) is worked out over the matching rows, as the SQLite adapter does in SQL.
 */
export class MongoSearchIndex implements SearchIndex {
  private readonly connection: Promise<Connection>;
  private connected?: Connection;

  constructor(options: MongoSearchIndexOptions) {
    const database = databaseNameOf(options.url);
    this.connection = import('mongodb').then(({ MongoClient }) => {
      const client = new MongoClient(options.url, {
        serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000,
        ignoreUndefined: true,
      });
      this.connected = { client, db: client.db(database) };
      return this.connected;
    });
    this.connection.catch(() => undefined);
  }

  private async collections(index: string): Promise<{ pages: Collection<PageDoc>; rows: Collection<RowDoc> }> {
    if (typeof index !== 'string' || !NAME.test(index)) throw new Error(`invalid index name ${JSON.stringify(index)}`);
    const { db } = this.connected ?? (await this.connection);
    return { pages: db.collection<PageDoc>(`si_${index}_pages`), rows: db.collection<RowDoc>(`si_${index}_rows`) };
  }

  async ensureIndex(index: string): Promise<void> {
    const { pages, rows } = await this.collections(index);
    await pages.createIndex({ space: 1 });
    await rows.createIndex({ space: 1, page: 1 });
    await rows.createIndex({ words: 1, space: 1 });
    await rows.createIndex(
      { text: 'text' },
      { default_language: 'english', language_override: 'no_language_field', name: 'text' },
    );
  }

  async pagesOf(index: string, spaceId: string): Promise<IndexedPageSummary[]> {
    const { pages } = await this.collections(index);
    const found = await pages.find({ space: spaceId }).toArray();
    return found.map((page) => ({ id: page.page, digest: page.digest, changedAt: page.changedAt }));
  }

  async write(index: string, ops: readonly SearchIndexOp[]): Promise<void> {
    const { pages, rows } = await this.collections(index);
    // Operations on the same page follow each other in order; each is idempotent, so a retried batch is harmless.
    for (const op of ops) {
      if (op.kind === 'deleteSpace') {
        await rows.deleteMany({ space: op.spaceId });
        await pages.deleteMany({ space: op.spaceId });
        continue;
      }
      const pageId = op.kind === 'putPage' ? op.page.id : op.pageId;
      await rows.deleteMany({ space: op.spaceId, page: pageId });
      if (op.kind === 'deletePage') {
        await pages.deleteOne({ _id: pageKey(op.spaceId, pageId) });
        continue;
      }
      const page = op.page;
      const key = pageKey(op.spaceId, page.id);
      const docs: RowDoc[] = [];
      const add = (kind: number, text: string, section?: RowDoc['section']) =>
        docs.push({
          _id: `${key}\u0000${docs.length}`,
          space: op.spaceId,
          page: page.id,
          kind,
          ...(section ? { section } : {}),
          text,
          words: [...new Set(fold(text).match(WORD) ?? [])],
        });
      add(TITLE, page.title);
      page.sections.forEach((section, ord) => {
        const stored = { ord, id: section.id, title: section.title, body: section.body };
        if (section.id !== '' && section.title.trim() !== '') add(HEADING, section.title, stored);
        if (section.body.trim() !== '') add(BODY, section.body, stored);
      });
      const writes: AnyBulkWriteOperation<RowDoc>[] = docs.map((doc) => ({
        replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
      }));
      if (writes.length > 0) await rows.bulkWrite(writes, { ordered: false });
      await pages.replaceOne(
        { _id: key },
        {
          _id: key,
          space: op.spaceId,
          page: page.id,
          title: page.title,
          path: page.path,
          changedAt: page.changedAt,
          digest: page.digest,
        },
        { upsert: true },
      );
    }
  }

  /** Every matching page of the allowed spaces, ranked, with its matching rows. */
  private async rank(index: string, terms: SearchTerm[], spaces: readonly string[]) {
    const { pages, rows } = await this.collections(index);
    const perPage = new Map<string, { terms: Set<number>; field: number; hits: number; rows: Map<string, RowDoc> }>();
    const note = (row: RowDoc, term: number) => {
      const key = pageKey(row.space, row.page);
      const entry = perPage.get(key) ?? { terms: new Set<number>(), field: 0, hits: 0, rows: new Map() };
      entry.terms.add(term);
      entry.field = Math.max(entry.field, row.kind);
      if (!entry.rows.has(row._id)) entry.hits++;
      entry.rows.set(row._id, row);
      perPage.set(key, entry);
    };
    const inSpaces = { space: { $in: [...spaces] } };
    // Every match is read to rank and count exactly, so only what ranking needs leaves the server: the texts
    // (and the section bodies snippets are cut from) are fetched for the pages answered only.
    const projection = { text: 0, words: 0, 'section.body': 0 };
    for (const [term, value] of terms.entries()) {
      const found = rows.find({ ...inSpaces, $text: { $search: textSearchOf(value) } }, { projection });
      for (const row of await found.toArray()) note(row, term);
      if (value.kind === 'word' && value.prefix) {
        // An anchored, case-sensitive regular expression on the folded words is an index range scan.
        const prefix = new RegExp(`^${escapeRegex(fold(value.word))}`);
        for (const row of await rows.find({ ...inSpaces, words: prefix }, { projection }).toArray()) note(row, term);
      }
    }
    const found = await pages.find({ _id: { $in: [...perPage.keys()] } }).toArray();
    const ranked: Ranked[] = found.map((page) => {
      const entry = perPage.get(page._id)!;
      return {
        key: page._id,
        space: page.space,
        page: page.page,
        terms: entry.terms.size,
        field: entry.field,
        hits: entry.hits,
        changedAt: page.changedAt,
      };
    });
    ranked.sort(compare);
    return { ranked, perPage, pagesById: new Map(found.map((page) => [page._id, page])) };
  }

  /** The section bodies of the matching rows of the pages answered (read after ranking, for their snippets). */
  private async bodies(index: string, rows: Iterable<Map<string, RowDoc>>): Promise<Map<string, string>> {
    const { rows: collection } = await this.collections(index);
    const ids = [...rows].flatMap((matched) =>
      [...matched.values()].filter((row) => row.section).map((row) => row._id),
    );
    if (ids.length === 0) return new Map();
    const found = await collection.find({ _id: { $in: ids } }, { projection: { 'section.body': 1 } }).toArray();
    return new Map(found.map((row) => [row._id, row.section?.body ?? '']));
  }

  private present(
    ranked: Ranked,
    terms: SearchTerm[],
    rows: Map<string, RowDoc>,
    page: PageDoc,
    bodies: Map<string, string>,
  ): PageHit {
    const sections = new Map<number, { id: string; title: string; snippet: string }>();
    const matched = [...rows.values()].filter((row) => row.section).sort((a, b) => a.section!.ord - b.section!.ord);
    for (const row of matched) {
      const section = { ...row.section!, body: bodies.get(row._id) ?? '' };
      const body = row.kind === BODY ? snippetOf(section.body, terms) : undefined;
      const known = sections.get(section.ord);
      if (known && body === undefined) continue;
      sections.set(section.ord, {
        id: section.id,
        title: section.title,
        snippet: body ?? snippetOf(section.body, []),
      });
    }
    return {
      spaceId: ranked.space,
      pageId: ranked.page,
      title: page.title,
      path: page.path,
      score: ranked.terms * 10 + ranked.field,
      sections: [...sections.entries()].sort(([a], [b]) => a - b).map(([, section]) => section),
    };
  }

  async searchPages(index: string, request: SearchRequest & { group: 'page' }): Promise<SearchAnswer<PageHit>> {
    const terms = parseQuery(request.text);
    if (terms.length === 0 || request.spaces.length === 0) return { hits: [], total: 0 };
    const { ranked, perPage, pagesById } = await this.rank(index, terms, request.spaces);
    const window = ranked.slice(request.offset, request.offset + request.limit);
    const bodies = await this.bodies(
      index,
      window.map((hit) => perPage.get(hit.key)!.rows),
    );
    return {
      hits: window.map((hit) => this.present(hit, terms, perPage.get(hit.key)!.rows, pagesById.get(hit.key)!, bodies)),
      total: ranked.length,
    };
  }

  async searchSpaces(index: string, request: SearchRequest & { group: 'space' }): Promise<SearchAnswer<SpaceHit>> {
    const terms = parseQuery(request.text);
    if (terms.length === 0 || request.spaces.length === 0) return { hits: [], total: 0 };
    const { ranked, perPage, pagesById } = await this.rank(index, terms, request.spaces);
    const bySpace = new Map<string, Ranked[]>();
    for (const hit of ranked) {
      const list = bySpace.get(hit.space);
      if (list) list.push(hit);
      else bySpace.set(hit.space, [hit]);
    }
    const spaces = [...bySpace.values()].sort((a, b) => compare(a[0], b[0]));
    const perSpace = request.pagesPerSpace ?? DEFAULT_PAGES_PER_SPACE;
    const window = spaces.slice(request.offset, request.offset + request.limit).map((hits) => hits.slice(0, perSpace));
    const bodies = await this.bodies(
      index,
      window.flat().map((hit) => perPage.get(hit.key)!.rows),
    );
    return {
      hits: window.map((hits) => {
        const pages = hits.map((hit) =>
          this.present(hit, terms, perPage.get(hit.key)!.rows, pagesById.get(hit.key)!, bodies),
        );
        return { spaceId: hits[0].space, score: pages[0].score, pages };
      }),
      total: spaces.length,
    };
  }

  async dropIndex(index: string): Promise<void> {
    const { pages, rows } = await this.collections(index);
    await pages.deleteMany({});
    await rows.deleteMany({});
  }

  async replaceIndex(target: string, source: string): Promise<void> {
    if (target === source) throw new Error(`an index cannot replace itself (${target})`);
    const from = await this.collections(source);
    const to = await this.collections(target);
    const { db } = this.connected ?? (await this.connection);
    // renameCollection with dropTarget is atomic per collection; pages and rows are renamed one after the other.
    for (const [source, target] of [
      [from.rows, to.rows],
      [from.pages, to.pages],
    ] as const) {
      const exists = await db.listCollections({ name: source.collectionName }, { nameOnly: true }).hasNext();
      if (exists) await source.rename(target.collectionName, { dropTarget: true });
      else await target.deleteMany({});
    }
    await this.ensureIndex(target);
  }

  async ping(): Promise<void> {
    await (await this.connection).db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    const connection = await this.connection.catch(() => undefined);
    await connection?.client.close();
  }
}
