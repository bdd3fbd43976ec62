import Database from 'better-sqlite3';
import {
  type IndexedPage,
  type IndexedPageSummary,
  MATCH_CLOSE,
  MATCH_OPEN,
  type PageHit,
  type SearchAnswer,
  type SearchIndex,
  type SearchIndexOp,
  type SearchRequest,
  type SectionHit,
  type SpaceHit,
  isSqliteFile,
  preparePrivateFile,
} from '@app/kernel';
import { type SearchTerm, foldWord, ftsString, parseQuery } from './query-text';

export interface SqliteSearchIndexOptions {
  /** Database file (`:memory:` for a throwaway index). */
  file: string;
  busyTimeoutMs?: number;
  /**
   * A one-word search that finds at most this many pages in a field reads them all (one query); beyond, each
   * space is asked for its best match (one seek each). Tests set 0 to take the second way always.
   */
  fewRows?: number;
}

/**
 * The layout of the file. Version 1 (one row of text per title, heading and section body, each in two FTS5
 * tables) is dropped when found: the search projection's own version was raised with it, so it replays.
 */
export const SEARCH_FORMAT = 2;

const NAME = /^[a-z][a-z0-9_]*$/;
/** The fields of a page, strongest first in ranking. */
const TITLE = 3;
const HEADING = 2;
const BODY = 1;
const SNIPPET_WORDS = 24;
const ELLIPSIS = '…';
const DEFAULT_PAGES_PER_SPACE = 5;
/** Between the parts (one per section) of a page's headings and bodies: a separator for FTS5, never in text. */
const SEP = '\u001e';
const OPEN = '\u0002';
const CLOSE = '\u0003';
/**
 * A page's key is its FTS5 rowid: `space ordinal × 2^32 + slot`. The pages of a space are one range of rowids
 * (a space is searched with a rowid range, which FTS5 seeks to), and their slots follow the order of their last
 * change (a later change, a higher slot), so that within a space the rowid is the recency order.
 */
const SPACE = 2 ** 32;
const MAX_SPACES = 2 ** 21 - 1; // keys stay exact JavaScript integers
const GAP = 2 ** 16;
const FIRST_SLOT = 2 ** 31;
const STEM = 'porter unicode61 remove_diacritics 2';
const RAW = 'unicode61 remove_diacritics 2';
/** A search that finds at most this many pages in a field reads them all; beyond, it asks space by space. */
const FEW = 2000;

interface Tables {
  pages: string;
  spaces: string;
  /** Whole pages, stemmed: title, headings and body (its text is the pages table). */
  stem: string;
  /** Whole pages, unstemmed (for prefixes). */
  raw: string;
  /** Titles alone and headings alone, stemmed and unstemmed: small, for ranking by field. */
  titleStem: string;
  titleRaw: string;
  headingStem: string;
  headingRaw: string;
  byChange: string;
}

function physicalTables(id: number): Tables {
  return {
    pages: `si${id}_pages`,
    spaces: `si${id}_spaces`,
    stem: `si${id}_stem`,
    raw: `si${id}_raw`,
    titleStem: `si${id}_title_stem`,
    titleRaw: `si${id}_title_raw`,
    headingStem: `si${id}_heading_stem`,
    headingRaw: `si${id}_heading_raw`,
    byChange: `si${id}_pages_by_change`,
  };
}

function checkName(index: string): void {
  if (typeof index !== 'string' || !NAME.test(index)) throw new Error(`invalid index name ${JSON.stringify(index)}`);
}

/** The first words of a text, for a section found by its heading only. */
function opening(text: string, words = SNIPPET_WORDS): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(' ') : `${all.slice(0, words).join(' ')}${ELLIPSIS}`;
}

/**
 * A window of words around the first marked one (marks are OPEN…CLOSE, made by FTS5's `highlight` or by the
 * prefix marking below), with the marks turned into the documented ones.
 */
function snippetOf(marked: string): string {
  const words = marked.split(/\s+/).filter(Boolean);
  const first = Math.max(
    0,
    words.findIndex((word) => word.includes(OPEN)),
  );
  let from = 0;
  if (words.length > SNIPPET_WORDS) from = Math.max(0, Math.min(first - 4, words.length - SNIPPET_WORDS));
  const to = Math.min(words.length, from + SNIPPET_WORDS);
  // A mark may span words (a phrase): close and reopen it at the window's edges.
  let open = words.slice(0, from).join(' ').lastIndexOf(OPEN) > words.slice(0, from).join(' ').lastIndexOf(CLOSE);
  let text = words.slice(from, to).join(' ');
  if (open) text = OPEN + text;
  open = text.lastIndexOf(OPEN) > text.lastIndexOf(CLOSE);
  if (open) text += CLOSE;
  const out = `${from > 0 ? ELLIPSIS : ''}${text}${to < words.length ? ELLIPSIS : ''}`;
  return out.split(OPEN).join(MATCH_OPEN).split(CLOSE).join(MATCH_CLOSE).split(`${MATCH_CLOSE}${MATCH_OPEN}`).join('');
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** Marks the words of a text that begin with a folded prefix (the raw index's prefix match, done again here). */
function markPrefix(text: string, prefix: string): string {
  return text.replace(WORD, (word) => {
    // Folding is a Unicode normalization: an ASCII word only needs lower case (the same result, much sooner).
    const folded = ASCII.test(word) ? word.toLowerCase() : foldWord(word);
    return folded.startsWith(prefix) ? `${OPEN}${word}${CLOSE}` : word;
  });
}

/** Drops marks nested in marks (a word found both by its stem and as a prefix). */
function flatten(text: string): string {
  if (!/\u0002[^\u0003]*\u0002/.test(text)) return text;
  let depth = 0;
  let out = '';
  for (const char of text) {
    if (char === OPEN) {
      if (depth++ === 0) out += char;
    } else if (char === CLOSE) {
      if (--depth === 0) out += char;
    } else out += char;
  }
  return out;
}

interface Source {
  table: 'stem' | 'raw';
  /** The expression with `%COLUMNS%` where a column filter goes. */
  expression: string;
}

interface Compiled {
  /** Per term, the FTS5 expressions that find it. */
  sources: Source[][];
  /** What `highlight` marks: every term, stemmed. */
  stemAll: string;
  /** The folded prefix of the last word, when it is one. */
  prefix: string | null;
}

function compile(terms: SearchTerm[]): Compiled {
  let prefix: string | null = null;
  const sources = terms.map((term): Source[] => {
    if (term.kind === 'phrase') return [{ table: 'stem', expression: ftsString(term.words) }];
    const own: Source[] = [{ table: 'stem', expression: ftsString([term.word]) }];
    if (term.prefix) {
      prefix = foldWord(term.word);
      own.push({ table: 'raw', expression: `${ftsString([prefix])} *` });
    }
    return own;
  });
  const stemAll = sources
    .flat()
    .filter((source) => source.table === 'stem')
    .map((source) => source.expression)
    .join(' OR ');
  return { sources, stemAll, prefix };
}

interface StoredPage {
  key: number;
  space_id: string;
  page_id: string;
  title: string;
  path: string;
  changed_at: string;
  headings: string;
  body: string;
  sections: string;
}

interface Ranked {
  key: number;
  terms: number;
  field: number;
}

/**
 * The embedded search index: SQLite FTS5 in its own file. One row per page in two FTS5 tables over the same
 * columns (title, headings, body): stemmed (Porter, for words and phrases; its text is the pages table, read back
 * only to mark matches in the pages answered) and unstemmed (contentless, for the prefix of the last word, which
 * must also match past a word's stem), both folding case and diacritics. See docs/search.md for the ranking and
 * how a query is run.
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly db: Database.Database;
  private readonly ready = new Map<string, Tables>();
  private readonly statements = new Map<string, Database.Statement>();
  private readonly few: number;

  constructor(options: SqliteSearchIndexOptions) {
    if (isSqliteFile(options.file)) preparePrivateFile(options.file);
    this.db = new Database(options.file);
    this.few = options.fewRows ?? FEW;
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.migrate();
  }

  /** An index file of another format is emptied (its indexes are rebuilt by the search projection's replay). */
  private migrate(): void {
    this.db.transaction(() => {
      this.db.exec('CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      const format = this.db.prepare(`SELECT value FROM search_meta WHERE key = 'format'`).pluck().get() as
        string | undefined;
      if (format === String(SEARCH_FORMAT)) return;
      // Every search table of another format: virtual tables first (their shadow tables go with them).
      const objects = this.db
        .prepare(
          `SELECT name, sql LIKE 'CREATE VIRTUAL%' AS virtual FROM sqlite_schema WHERE type = 'table'
           AND (name LIKE 's\\_%' ESCAPE '\\' OR name GLOB 'si[0-9]*_*') ORDER BY virtual DESC`,
        )
        .all() as { name: string; virtual: number }[];
      for (const { name } of objects) this.db.exec(`DROP TABLE IF EXISTS "${name}"`);
      this.db.exec('DROP TABLE IF EXISTS search_indexes');
      this.db.exec('CREATE TABLE search_indexes (name TEXT PRIMARY KEY, physical INTEGER NOT NULL UNIQUE)');
      this.db
        .prepare(
          `INSERT INTO search_meta (key, value) VALUES ('format', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        )
        .run(String(SEARCH_FORMAT));
    })();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  ensureIndex(index: string): Promise<void> {
    this.ensure(index);
    return Promise.resolve();
  }

  /** The tables of a named index, made on first use. Names map to tables so that a replace renames nothing. */
  private ensure(index: string): Tables {
    checkName(index);
    const known = this.ready.get(index);
    if (known) return known;
    const t = this.db.transaction(() => {
      let physical = this.db.prepare('SELECT physical FROM search_indexes WHERE name = ?').pluck().get(index) as
        number | undefined;
      if (physical === undefined) {
        physical =
          ((this.db.prepare('SELECT max(physical) FROM search_indexes').pluck().get() as number | null) ?? 0) + 1;
        this.db.prepare('INSERT INTO search_indexes (name, physical) VALUES (?, ?)').run(index, physical);
      }
      const tables = physicalTables(physical);
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS ${tables.spaces} (ord INTEGER PRIMARY KEY, space_id TEXT NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS ${tables.pages} (
          key INTEGER PRIMARY KEY, space_id TEXT NOT NULL, page_id TEXT NOT NULL, path TEXT NOT NULL,
          changed_at TEXT NOT NULL, digest TEXT NOT NULL, sections TEXT NOT NULL,
          title TEXT NOT NULL, headings TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (space_id, page_id));
        CREATE INDEX IF NOT EXISTS ${tables.byChange} ON ${tables.pages} (space_id, changed_at, key);
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.stem} USING fts5(title, headings, body,
          content = '${tables.pages}', content_rowid = 'key', tokenize = '${STEM}');
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.raw} USING fts5(text,
          content = '', contentless_delete = 1, detail = none, prefix = '4 5 6', tokenize = '${RAW}');
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.titleStem} USING fts5(text,
          content = '', contentless_delete = 1, tokenize = '${STEM}');
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.titleRaw} USING fts5(text,
          content = '', contentless_delete = 1, detail = none, prefix = '4 5 6', tokenize = '${RAW}');
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.headingStem} USING fts5(text,
          content = '', contentless_delete = 1, tokenize = '${STEM}');
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.headingRaw} USING fts5(text,
          content = '', contentless_delete = 1, detail = none, prefix = '4 5 6', tokenize = '${RAW}');
      `);
      return tables;
    })();
    this.ready.set(index, t);
    return t;
  }

  pagesOf(index: string, spaceId: string): Promise<IndexedPageSummary[]> {
    const t = this.ensure(index);
    const rows = this.statement(
      `SELECT page_id AS id, digest, changed_at AS changedAt FROM ${t.pages} WHERE space_id = ?`,
    ).all(spaceId) as IndexedPageSummary[];
    return Promise.resolve(rows);
  }

  write(index: string, ops: readonly SearchIndexOp[]): Promise<void> {
    const t = this.ensure(index);
    this.db.transaction(() => {
      for (const op of ops) {
        if (op.kind === 'deleteSpace') {
          const keys = this.statement(`SELECT key FROM ${t.pages} WHERE space_id = ?`)
            .pluck()
            .all(op.spaceId) as number[];
          for (const key of keys) this.removePage(t, key);
          continue;
        }
        const pageId = op.kind === 'putPage' ? op.page.id : op.pageId;
        const existing = this.statement(`SELECT key FROM ${t.pages} WHERE space_id = ? AND page_id = ?`)
          .pluck()
          .get(op.spaceId, pageId) as number | undefined;
        if (existing !== undefined) this.removePage(t, existing);
        if (op.kind === 'putPage') this.addPage(t, op.spaceId, op.page);
      }
    })();
    return Promise.resolve();
  }

  private removePage(t: Tables, key: number): void {
    const old = this.statement(`SELECT title, headings, body FROM ${t.pages} WHERE key = ?`).get(key) as
      { title: string; headings: string; body: string } | undefined;
    if (!old) return;
    // An external-content FTS5 table is told the text it indexed, to take it out.
    this.statement(`INSERT INTO ${t.stem} (${t.stem}, rowid, title, headings, body) VALUES ('delete', ?, ?, ?, ?)`).run(
      key,
      old.title,
      old.headings,
      old.body,
    );
    for (const table of [t.raw, t.titleStem, t.titleRaw, t.headingStem, t.headingRaw]) {
      this.statement(`DELETE FROM ${table} WHERE rowid = ?`).run(key);
    }
    this.statement(`DELETE FROM ${t.pages} WHERE key = ?`).run(key);
  }

  private addPage(t: Tables, spaceId: string, page: IndexedPage): void {
    const clean = (text: string) => text.split(SEP).join(' ');
    const headings = page.sections.map((section) => (section.id === '' ? '' : clean(section.title))).join(SEP);
    const body = page.sections.map((section) => clean(section.body)).join(SEP);
    const sections = JSON.stringify(page.sections.map((section) => [section.id, section.title]));
    const key = this.keyFor(t, spaceId, page.changedAt);
    this.statement(
      `INSERT INTO ${t.pages} (key, space_id, page_id, path, changed_at, digest, sections, title, headings, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(key, spaceId, page.id, page.path, page.changedAt, page.digest, sections, page.title, headings, body);
    this.indexText(t, key, page.title, headings, body);
  }

  private indexText(t: Tables, key: number, title: string, headings: string, body: string): void {
    this.statement(`INSERT INTO ${t.stem} (rowid, title, headings, body) VALUES (?, ?, ?, ?)`).run(
      key,
      title,
      headings,
      body,
    );
    this.statement(`INSERT INTO ${t.raw} (rowid, text) VALUES (?, ?)`).run(
      key,
      `${title}${SEP}${headings}${SEP}${body}`,
    );
    for (const table of [t.titleStem, t.titleRaw]) {
      this.statement(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`).run(key, title);
    }
    if (headings.split(SEP).join('').trim() === '') return;
    for (const table of [t.headingStem, t.headingRaw]) {
      this.statement(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`).run(key, headings);
    }
  }

  private spaceOrdinal(t: Tables, spaceId: string): number {
    const known = this.statement(`SELECT ord FROM ${t.spaces} WHERE space_id = ?`).pluck().get(spaceId) as
      number | undefined;
    if (known !== undefined) return known;
    const ord = Number(this.statement(`INSERT INTO ${t.spaces} (space_id) VALUES (?)`).run(spaceId).lastInsertRowid);
    if (ord > MAX_SPACES) throw new Error(`the search index holds more than ${MAX_SPACES} spaces`);
    return ord;
  }

  /**
   * A key for a page of a space changed at `changedAt`: in the space's range, after the keys of pages changed
   * before or at the same time, before those changed later. Slots are spaced out so that a change older than
   * the latest fits between two; when none is free, the space's pages are given new keys.
   */
  private keyFor(t: Tables, spaceId: string, changedAt: string): number {
    const base = this.spaceOrdinal(t, spaceId) * SPACE;
    const before = this.statement(
      `SELECT key FROM ${t.pages} WHERE space_id = ? AND changed_at <= ? ORDER BY changed_at DESC, key DESC LIMIT 1`,
    )
      .pluck()
      .get(spaceId, changedAt) as number | undefined;
    const after = this.statement(
      `SELECT key FROM ${t.pages} WHERE space_id = ? AND changed_at > ? ORDER BY changed_at, key LIMIT 1`,
    )
      .pluck()
      .get(spaceId, changedAt) as number | undefined;
    const low = before === undefined ? undefined : before - base;
    const high = after === undefined ? undefined : after - base;
    let slot: number | undefined;
    if (high === undefined) slot = low === undefined ? FIRST_SLOT : low + GAP;
    else if (low === undefined) slot = high - GAP;
    else slot = Math.floor((low + high) / 2);
    if (slot < 0 || slot >= SPACE || (low !== undefined && slot <= low) || (high !== undefined && slot >= high)) {
      this.respace(t, spaceId, base);
      return this.keyFor(t, spaceId, changedAt);
    }
    return base + slot;
  }

  /** Gives the pages of a space evenly spaced keys in the order of their change (rare: when no slot is free). */
  private respace(t: Tables, spaceId: string, base: number): void {
    const pages = this.statement(`SELECT * FROM ${t.pages} WHERE space_id = ? ORDER BY changed_at, key`).all(
      spaceId,
    ) as (StoredPage & { digest: string })[];
    const step = Math.max(1, Math.min(GAP, Math.floor(SPACE / (pages.length + 2))));
    const first = Math.max(0, FIRST_SLOT - Math.floor((pages.length * step) / 2));
    if (first + pages.length * step >= SPACE) throw new Error(`space ${spaceId} has too many pages to index`);
    for (const page of pages) this.removePage(t, page.key);
    pages.forEach((page, n) => {
      const key = base + first + n * step;
      this.statement(
        `INSERT INTO ${t.pages} (key, space_id, page_id, path, changed_at, digest, sections, title, headings, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        key,
        spaceId,
        page.page_id,
        page.path,
        page.changed_at,
        page.digest,
        page.sections,
        page.title,
        page.headings,
        page.body,
      );
      this.indexText(t, key, page.title, page.headings, page.body);
    });
  }

  /** The FTS5 table that finds a source's matches in a field (the body field: anywhere in the page). */
  private tableOf(t: Tables, field: number, source: Source): string {
    const stem = source.table === 'stem';
    if (field === TITLE) return stem ? t.titleStem : t.titleRaw;
    if (field === HEADING) return stem ? t.headingStem : t.headingRaw;
    return stem ? t.stem : t.raw;
  }

  /**
   * The SQL of the matching pages among some rowids (`within`): `key`, `terms` (how many of the query's terms
   * the page holds) and `field` (the strongest field any term was found in). One FTS5 query per term, source and
   * field; each restricted to the rowids of the allowed spaces before any row leaves FTS5. This is the general
   * way, for queries of several terms: it reads every match.
   */
  private matching(t: Tables, compiled: Compiled, within: string, params: unknown[], withinParams: unknown[]): string {
    const parts: string[] = [];
    compiled.sources.forEach((sources, term) => {
      for (const source of sources) {
        for (const field of [TITLE, HEADING, BODY]) {
          const table = this.tableOf(t, field, source);
          parts.push(
            `SELECT rowid AS key, ${term} AS term, ${field} AS field FROM ${table} WHERE ${table} MATCH ? ${within}`,
          );
          params.push(source.expression, ...withinParams);
        }
      }
    });
    return `SELECT key, count(DISTINCT term) AS terms, max(field) AS field FROM (${parts.join(' UNION ALL ')}) GROUP BY key`;
  }

  /** The keys of a space's pages where a source matches in a field, most recent first. */
  private recent(t: Tables, field: number, source: Source, ord: number, limit: number): number[] {
    const table = this.tableOf(t, field, source);
    return this.statement(
      `SELECT rowid FROM ${table} WHERE ${table} MATCH ?
       AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER) ORDER BY rowid DESC LIMIT ?`,
    )
      .pluck()
      .all(source.expression, ord * SPACE, ord * SPACE + SPACE - 1, limit) as number[];
  }

  /**
   * The best `want` pages of one space for a query of one term, best first, without reading every match: field
   * by field (title, headings, anywhere), each field's matches come most recent first out of FTS5 (the key is
   * the recency order within a space), and a page is taken at the first field it is found in.
   */
  private bestInSpace(t: Tables, sources: Source[], ord: number, want: number): Ranked[] {
    const taken: Ranked[] = [];
    const seen = new Set<number>();
    for (const field of [TITLE, HEADING, BODY]) {
      if (taken.length >= want) break;
      // Pages already taken in a stronger field come again here: ask for as many more.
      const need = want - taken.length + seen.size;
      const keys = [...new Set(sources.flatMap((source) => this.recent(t, field, source, ord, need)))].sort(
        (a, b) => b - a,
      );
      for (const key of keys) {
        if (seen.has(key)) continue;
        seen.add(key);
        taken.push({ key, terms: 1, field });
        if (taken.length >= want) break;
      }
    }
    return taken;
  }

  /** How many pages of a space one term's sources find (a union when the prefix adds the unstemmed index). */
  private countInSpace(t: Tables, sources: Source[], ord: number): number {
    const range = [ord * SPACE, ord * SPACE + SPACE - 1];
    const parts = sources.map((source) => {
      const table = this.tableOf(t, BODY, source);
      return `SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)`;
    });
    const sql =
      parts.length === 1 ? `SELECT count(*) FROM (${parts[0]})` : `SELECT count(*) FROM (${parts.join(' UNION ')})`;
    return this.statement(sql)
      .pluck()
      .get(...sources.flatMap((source) => [source.expression, ...range])) as number;
  }

  /**
   * For a query of one term, each allowed space's best page in a field, for the spaces in `among`. A field
   * where the term is rare is read whole (one query, at most FEW rows); otherwise each space is asked for its
   * most recent match (one indexed seek per space, which finds a common word at once).
   */
  private bestPerSpace(t: Tables, field: number, sources: Source[], among: Set<number>): Map<number, number> {
    const best = new Map<number, number>();
    for (const source of sources) {
      const table = this.tableOf(t, field, source);
      const few = this.statement(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?`)
        .pluck()
        .all(source.expression, this.few + 1) as number[];
      if (few.length <= this.few) {
        for (const key of few) {
          const ord = Math.floor(key / SPACE);
          if (among.has(ord) && key > (best.get(ord) ?? -1)) best.set(ord, key);
        }
        continue;
      }
      for (const ord of among) {
        const [key] = this.recent(t, field, source, ord, 1);
        if (key !== undefined && key > (best.get(ord) ?? -1)) best.set(ord, key);
      }
    }
    return best;
  }

  private ordinals(t: Tables, spaces: readonly string[]): number[] {
    if (spaces.length === 1) {
      const ord = this.statement(`SELECT ord FROM ${t.spaces} WHERE space_id = ?`).pluck().get(spaces[0]) as
        number | undefined;
      return ord === undefined ? [] : [ord];
    }
    return this.statement(`SELECT ord FROM ${t.spaces} WHERE space_id IN (SELECT value FROM json_each(?)) ORDER BY ord`)
      .pluck()
      .all(JSON.stringify(spaces)) as number[];
  }

  /** The rowid restriction of a set of spaces: a range for one space, a filter on the ordinal otherwise. */
  private within(ords: number[]): { sql: string; params: unknown[] } {
    if (ords.length === 1) {
      return {
        sql: 'AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)',
        params: [ords[0] * SPACE, ords[0] * SPACE + SPACE - 1],
      };
    }
    return { sql: `AND (rowid / ${SPACE}) IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(ords)] };
  }

  searchPages(index: string, request: SearchRequest & { group: 'page' }): Promise<SearchAnswer<PageHit>> {
    const t = this.ensure(index);
    const terms = parseQuery(request.text);
    if (terms.length === 0 || request.spaces.length === 0) return Promise.resolve({ hits: [], total: 0 });
    const ords = this.ordinals(t, request.spaces);
    if (ords.length === 0) return Promise.resolve({ hits: [], total: 0 });
    const compiled = compile(terms);
    if (ords.length === 1 && compiled.sources.length === 1) {
      const [sources] = compiled.sources;
      const total = this.countInSpace(t, sources, ords[0]);
      const best = this.bestInSpace(t, sources, ords[0], request.offset + request.limit).slice(request.offset);
      return Promise.resolve({ hits: this.pageHits(t, compiled, best), total });
    }
    const within = this.within(ords);
    const params: unknown[] = [];
    const matching = this.matching(t, compiled, within.sql, params, within.params);
    // Within a space the key is the recency order; across spaces the page's change time decides.
    const recency =
      ords.length === 1 ? 'm.key DESC' : `(SELECT changed_at FROM ${t.pages} WHERE key = m.key) DESC, m.key DESC`;
    const rows = this.statement(
      `SELECT m.*, count(*) OVER () AS total FROM (${matching}) m
       ORDER BY m.terms DESC, m.field DESC, ${recency} LIMIT ? OFFSET ?`,
    ).all(...params, request.limit, request.offset) as (Ranked & { total: number })[];
    const total =
      rows[0]?.total ??
      (this.statement(`SELECT count(*) FROM (${matching})`)
        .pluck()
        .get(...params) as number);
    return Promise.resolve({ hits: this.pageHits(t, compiled, rows), total });
  }

  searchSpaces(index: string, request: SearchRequest & { group: 'space' }): Promise<SearchAnswer<SpaceHit>> {
    const t = this.ensure(index);
    const terms = parseQuery(request.text);
    if (terms.length === 0 || request.spaces.length === 0) return Promise.resolve({ hits: [], total: 0 });
    const ords = this.ordinals(t, request.spaces);
    if (ords.length === 0) return Promise.resolve({ hits: [], total: 0 });
    const compiled = compile(terms);
    const perSpace = request.pagesPerSpace ?? DEFAULT_PAGES_PER_SPACE;
    const { rows, total } =
      compiled.sources.length === 1
        ? this.rankSpacesOneTerm(t, compiled.sources[0], ords, request.offset, request.limit, perSpace)
        : this.rankSpaces(t, compiled, ords, request.offset, request.limit, perSpace);
    const hits: SpaceHit[] = [];
    for (const page of this.pageHits(t, compiled, rows)) {
      const last = hits[hits.length - 1];
      if (last?.spaceId === page.spaceId) last.pages.push(page);
      else hits.push({ spaceId: page.spaceId, score: page.score, pages: [page] });
    }
    return Promise.resolve({ hits, total });
  }

  /**
   * Spaces for a query of one term, without reading every match: each allowed space's best page, field by field
   * (a space placed at the first field it is found in), then the spaces answered get their best pages.
   */
  private rankSpacesOneTerm(
    t: Tables,
    sources: Source[],
    ords: number[],
    offset: number,
    limit: number,
    perSpace: number,
  ) {
    const remaining = new Set(ords);
    const found: { ord: number; key: number; field: number; changedAt: string }[] = [];
    for (const field of [TITLE, HEADING, BODY]) {
      if (remaining.size === 0) break;
      for (const [ord, key] of this.bestPerSpace(t, field, sources, remaining)) {
        remaining.delete(ord);
        found.push({ ord, key, field, changedAt: '' });
      }
    }
    const changed = new Map(
      (
        this.statement(`SELECT key, changed_at FROM ${t.pages} WHERE key IN (SELECT value FROM json_each(?))`).all(
          JSON.stringify(found.map((space) => space.key)),
        ) as { key: number; changed_at: string }[]
      ).map((row) => [row.key, row.changed_at]),
    );
    for (const space of found) space.changedAt = changed.get(space.key) ?? '';
    found.sort(
      (a, b) =>
        b.field - a.field || (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0) || b.key - a.key,
    );
    const rows = found
      .slice(offset, offset + limit)
      .flatMap((space) => this.bestInSpace(t, sources, space.ord, perSpace));
    return { rows, total: found.length };
  }

  /** Spaces for a query of several terms: every match is read and ranked in SQL. */
  private rankSpaces(t: Tables, compiled: Compiled, ords: number[], offset: number, limit: number, perSpace: number) {
    const within = this.within(ords);
    const params: unknown[] = [];
    const matching = this.matching(t, compiled, within.sql, params, within.params);
    // A space ranks as its best page (within a space the key is the recency order); each listed with its best.
    const rows = this.statement(
      `WITH ranked AS (
         SELECT key, terms, field, key / ${SPACE} AS ord,
           row_number() OVER (PARTITION BY key / ${SPACE} ORDER BY terms DESC, field DESC, key DESC) AS n
         FROM (${matching})),
       spaces AS (
         SELECT r.ord, r.terms, r.field, p.changed_at, r.key, count(*) OVER () AS total
         FROM ranked r JOIN ${t.pages} p ON p.key = r.key WHERE r.n = 1
         ORDER BY r.terms DESC, r.field DESC, p.changed_at DESC, r.key DESC LIMIT ? OFFSET ?)
       SELECT r.key, r.terms, r.field, s.total FROM spaces s JOIN ranked r ON r.ord = s.ord AND r.n <= ?
       ORDER BY s.terms DESC, s.field DESC, s.changed_at DESC, s.key DESC, r.n`,
    ).all(...params, limit, offset, perSpace) as (Ranked & { total: number })[];
    const total =
      rows[0]?.total ??
      (this.statement(`SELECT count(DISTINCT key / ${SPACE}) FROM (${matching})`)
        .pluck()
        .get(...params) as number);
    return { rows, total };
  }

  /**
   * The hits of ranked rows, with their matching sections and a snippet of each: only the pages answered are read
   * back, and FTS5 marks the matched words of their headings and bodies (`highlight`), prefixes marked here.
   */
  private pageHits(t: Tables, compiled: Compiled, rows: Ranked[]): PageHit[] {
    if (rows.length === 0) return [];
    const read = this.statement(
      `SELECT key, space_id, page_id, title, path, changed_at, headings, body, sections FROM ${t.pages} WHERE key = ?`,
    );
    // The rowid is cast: beside MATCH, FTS5 would not take a rowid bound as a JavaScript number (a REAL) as one.
    const highlight = this.statement(
      `SELECT highlight(${t.stem}, 1, '${OPEN}', '${CLOSE}') AS headings, highlight(${t.stem}, 2, '${OPEN}', '${CLOSE}') AS body
       FROM ${t.stem} WHERE ${t.stem} MATCH ? AND rowid = CAST(? AS INTEGER)`,
    );
    return rows.map((row) => {
      const page = read.get(row.key) as StoredPage;
      const marked = (highlight.get(compiled.stemAll, row.key) as { headings: string; body: string } | undefined) ?? {
        headings: page.headings,
        body: page.body,
      };
      let headings = marked.headings.split(SEP);
      let bodies = marked.body.split(SEP);
      if (compiled.prefix) {
        const prefix = compiled.prefix;
        headings = headings.map((text) => flatten(markPrefix(text, prefix)));
        bodies = bodies.map((text) => flatten(markPrefix(text, prefix)));
      }
      const sections: SectionHit[] = [];
      (JSON.parse(page.sections) as [string, string][]).forEach(([id, title], i) => {
        const body = bodies[i] ?? '';
        const inBody = body.includes(OPEN);
        const inHeading = id !== '' && (headings[i] ?? '').includes(OPEN);
        if (!inBody && !inHeading) return;
        const plain = body.split(OPEN).join('').split(CLOSE).join('');
        sections.push({ id, title, snippet: inBody ? snippetOf(body) : opening(plain) });
      });
      return {
        spaceId: page.space_id,
        pageId: page.page_id,
        title: page.title,
        path: page.path,
        score: row.terms * 10 + row.field,
        sections,
      };
    });
  }

  dropIndex(index: string): Promise<void> {
    checkName(index);
    this.db.transaction(() => this.dropPhysical(index))();
    this.forget();
    return Promise.resolve();
  }

  private dropPhysical(index: string): void {
    const physical = this.db.prepare('SELECT physical FROM search_indexes WHERE name = ?').pluck().get(index) as
      number | undefined;
    if (physical === undefined) return;
    const t = physicalTables(physical);
    for (const table of [t.stem, t.raw, t.titleStem, t.titleRaw, t.headingStem, t.headingRaw, t.pages, t.spaces]) {
      this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    }
    this.db.prepare('DELETE FROM search_indexes WHERE name = ?').run(index);
  }

  private forget(): void {
    this.ready.clear();
    this.statements.clear();
  }

  replaceIndex(target: string, source: string): Promise<void> {
    checkName(target);
    if (target === source) throw new Error(`an index cannot replace itself (${target})`);
    this.ensure(source);
    this.db.transaction(() => {
      this.dropPhysical(target);
      this.db.prepare('UPDATE search_indexes SET name = ? WHERE name = ?').run(target, source);
    })();
    this.forget();
    this.ensure(target);
    return Promise.resolve();
  }

  ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }
}
