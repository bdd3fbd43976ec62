import Database from 'better-sqlite3';
import {
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
import { type SearchTerm, ftsString, parseQuery } from './query-text';

export interface SqliteSearchIndexOptions {
  /** Database file (`:memory:` for a throwaway index). */
  file: string;
  busyTimeoutMs?: number;
}

const NAME = /^[a-z][a-z0-9_]*$/;
/** What a hit row is: the field it indexes, strongest first in ranking. */
const TITLE = 3;
const HEADING = 2;
const BODY = 1;
const SNIPPET_TOKENS = 24;
const ELLIPSIS = '…';
const DEFAULT_PAGES_PER_SPACE = 5;

interface Tables {
  pages: string;
  sections: string;
  rows: string;
  stem: string;
  raw: string;
}

function tablesOf(index: string): Tables {
  if (typeof index !== 'string' || !NAME.test(index)) throw new Error(`invalid index name ${JSON.stringify(index)}`);
  return {
    pages: `"s_${index}_pages"`,
    sections: `"s_${index}_sections"`,
    rows: `"s_${index}_rows"`,
    stem: `"s_${index}_stem"`,
    raw: `"s_${index}_raw"`,
  };
}

/** The start of a text, cut at a word boundary, for a section found by its heading only. */
function opening(text: string, words = SNIPPET_TOKENS): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(' ') : `${all.slice(0, words).join(' ')}${ELLIPSIS}`;
}

interface Match {
  /** One FTS5 expression per term, on the stemmed text. */
  stem: string[];
  /** The prefix form of the last word, on the unstemmed text (null when it is not a prefix). */
  rawPrefix: { term: number; expression: string } | null;
}

function compile(terms: SearchTerm[]): Match {
  let rawPrefix: Match['rawPrefix'] = null;
  const stem = terms.map((term, index) => {
    if (term.kind === 'phrase') return ftsString(term.words);
    if (term.prefix) rawPrefix = { term: index, expression: `${ftsString([term.word])} *` };
    return ftsString([term.word]);
  });
  return { stem, rawPrefix };
}

/**
 * The embedded search index: SQLite FTS5 in its own file. A page is stored as rows of text (its title, and each
 * section's heading and body), each row indexed twice: stemmed (Porter, for words) and unstemmed (for prefixes,
 * which must also match past a word's stem), both folding case and diacritics. Ranking happens in SQL: pages
 * matching more of the query's terms first, then those matched in a stronger field (title, heading, body), then
 * the most recently changed, then those with more matching rows.
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly db: Database.Database;
  private readonly ready = new Set<string>();

  constructor(options: SqliteSearchIndexOptions) {
    if (isSqliteFile(options.file)) preparePrivateFile(options.file);
    this.db = new Database(options.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
  }

  ensureIndex(index: string): Promise<void> {
    this.ensure(index);
    return Promise.resolve();
  }

  private ensure(index: string): Tables {
    const t = tablesOf(index);
    if (this.ready.has(index)) return t;
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS ${t.pages} (
        key INTEGER PRIMARY KEY, space_id TEXT NOT NULL, page_id TEXT NOT NULL, title TEXT NOT NULL,
        path TEXT NOT NULL, changed_at TEXT NOT NULL, digest TEXT NOT NULL, UNIQUE (space_id, page_id));
      CREATE TABLE IF NOT EXISTS ${t.sections} (
        key INTEGER PRIMARY KEY, page_key INTEGER NOT NULL, ord INTEGER NOT NULL, anchor TEXT NOT NULL,
        title TEXT NOT NULL, body TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS "s_${index}_sections_page" ON ${t.sections} (page_key, ord);
      CREATE TABLE IF NOT EXISTS ${t.rows} (
        rowid INTEGER PRIMARY KEY, page_key INTEGER NOT NULL, section_key INTEGER, kind INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS "s_${index}_rows_page" ON ${t.rows} (page_key);
      CREATE VIRTUAL TABLE IF NOT EXISTS ${t.stem} USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE IF NOT EXISTS ${t.raw} USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
    `);
    this.ready.add(index);
    return t;
  }

  pagesOf(index: string, spaceId: string): Promise<IndexedPageSummary[]> {
    const t = this.ensure(index);
    const rows = this.db
      .prepare(`SELECT page_id AS id, digest, changed_at AS changedAt FROM ${t.pages} WHERE space_id = ?`)
      .all(spaceId) as IndexedPageSummary[];
    return Promise.resolve(rows);
  }

  write(index: string, ops: readonly SearchIndexOp[]): Promise<void> {
    const t = this.ensure(index);
    const removePage = (key: number) => {
      const rowids = this.db.prepare(`SELECT rowid FROM ${t.rows} WHERE page_key = ?`).pluck().all(key) as number[];
      const del = [
        this.db.prepare(`DELETE FROM ${t.stem} WHERE rowid = ?`),
        this.db.prepare(`DELETE FROM ${t.raw} WHERE rowid = ?`),
      ];
      for (const rowid of rowids) for (const statement of del) statement.run(rowid);
      this.db.prepare(`DELETE FROM ${t.rows} WHERE page_key = ?`).run(key);
      this.db.prepare(`DELETE FROM ${t.sections} WHERE page_key = ?`).run(key);
      this.db.prepare(`DELETE FROM ${t.pages} WHERE key = ?`).run(key);
    };
    const keyOf = (spaceId: string, pageId: string) =>
      this.db.prepare(`SELECT key FROM ${t.pages} WHERE space_id = ? AND page_id = ?`).pluck().get(spaceId, pageId) as
        number | undefined;
    const addRow = (pageKey: number, sectionKey: number | null, kind: number, text: string) => {
      const { lastInsertRowid } = this.db
        .prepare(`INSERT INTO ${t.rows} (page_key, section_key, kind) VALUES (?, ?, ?)`)
        .run(pageKey, sectionKey, kind);
      this.db.prepare(`INSERT INTO ${t.stem} (rowid, text) VALUES (?, ?)`).run(lastInsertRowid, text);
      this.db.prepare(`INSERT INTO ${t.raw} (rowid, text) VALUES (?, ?)`).run(lastInsertRowid, text);
    };
    this.db.transaction(() => {
      for (const op of ops) {
        if (op.kind === 'deleteSpace') {
          const keys = this.db
            .prepare(`SELECT key FROM ${t.pages} WHERE space_id = ?`)
            .pluck()
            .all(op.spaceId) as number[];
          keys.forEach(removePage);
          continue;
        }
        const existing = keyOf(op.spaceId, op.kind === 'putPage' ? op.page.id : op.pageId);
        if (existing !== undefined) removePage(existing);
        if (op.kind === 'deletePage') continue;
        const page = op.page;
        const pageKey = Number(
          this.db
            .prepare(
              `INSERT INTO ${t.pages} (space_id, page_id, title, path, changed_at, digest) VALUES (?, ?, ?, ?, ?, ?)`,
            )
            .run(op.spaceId, page.id, page.title, page.path, page.changedAt, page.digest).lastInsertRowid,
        );
        addRow(pageKey, null, TITLE, page.title);
        page.sections.forEach((section, ord) => {
          const sectionKey = Number(
            this.db
              .prepare(`INSERT INTO ${t.sections} (page_key, ord, anchor, title, body) VALUES (?, ?, ?, ?, ?)`)
              .run(pageKey, ord, section.id, section.title, section.body).lastInsertRowid,
          );
          // The text before the first heading is titled like the page: its title is already the page's row.
          if (section.id !== '' && section.title.trim() !== '') addRow(pageKey, sectionKey, HEADING, section.title);
          if (section.body.trim() !== '') addRow(pageKey, sectionKey, BODY, section.body);
        });
      }
    })();
    return Promise.resolve();
  }

  /**
   * The SQL of the matching pages of the allowed spaces, ranked: `key`, `space_id`, `terms` (how many of the
   * query's terms the page holds), `field` (the strongest field matched), `hits`, `changed_at`.
   */
  private matching(t: Tables, match: Match, params: unknown[], spaces: readonly string[]): string {
    const hits = match.stem.map((expression, term) => {
      params.push(expression);
      return `SELECT rowid, ${term} AS term FROM ${t.stem} WHERE ${t.stem} MATCH ?`;
    });
    if (match.rawPrefix) {
      params.push(match.rawPrefix.expression);
      hits.push(`SELECT rowid, ${match.rawPrefix.term} AS term FROM ${t.raw} WHERE ${t.raw} MATCH ?`);
    }
    params.push(JSON.stringify(spaces));
    return `
      WITH hits(rowid, term) AS (${hits.join(' UNION ALL ')}),
      matched AS (
        SELECT r.page_key AS key, count(DISTINCT h.term) AS terms, max(r.kind) AS field, count(*) AS hits
        FROM hits h JOIN ${t.rows} r ON r.rowid = h.rowid JOIN ${t.pages} p ON p.key = r.page_key
        WHERE p.space_id IN (SELECT value FROM json_each(?))
        GROUP BY r.page_key)
      SELECT m.key, p.space_id, p.page_id, p.title, p.path, p.changed_at, m.terms, m.field, m.hits
      FROM matched m JOIN ${t.pages} p ON p.key = m.key`;
  }

  searchPages(index: string, request: SearchRequest & { group: 'page' }): Promise<SearchAnswer<PageHit>> {
    const t = this.ensure(index);
    const terms = parseQuery(request.text);
    if (terms.length === 0 || request.spaces.length === 0) return Promise.resolve({ hits: [], total: 0 });
    const match = compile(terms);
    const params: unknown[] = [];
    const sql = `
      WITH ranked AS (${this.matching(t, match, params, request.spaces)})
      SELECT *, count(*) OVER () AS total FROM ranked
      ORDER BY terms DESC, field DESC, changed_at DESC, hits DESC, key
      LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(sql).all(...params, request.limit, request.offset) as RankedRow[];
    const total = rows[0]?.total ?? this.countPages(t, match, request.spaces);
    return Promise.resolve({ hits: this.pageHits(t, match, rows), total });
  }

  private countPages(t: Tables, match: Match, spaces: readonly string[]): number {
    const params: unknown[] = [];
    const sql = `SELECT count(*) FROM (${this.matching(t, match, params, spaces)})`;
    return this.db
      .prepare(sql)
      .pluck()
      .get(...params) as number;
  }

  searchSpaces(index: string, request: SearchRequest & { group: 'space' }): Promise<SearchAnswer<SpaceHit>> {
    const t = this.ensure(index);
    const terms = parseQuery(request.text);
    if (terms.length === 0 || request.spaces.length === 0) return Promise.resolve({ hits: [], total: 0 });
    const match = compile(terms);
    const perSpace = request.pagesPerSpace ?? DEFAULT_PAGES_PER_SPACE;
    const params: unknown[] = [];
    // A space ranks as its best page; each listed with its best pages.
    const sql = `
      WITH ranked AS (${this.matching(t, match, params, request.spaces)}),
      ordered AS (
        SELECT *, row_number() OVER (
          PARTITION BY space_id ORDER BY terms DESC, field DESC, changed_at DESC, hits DESC, key) AS n
        FROM ranked),
      spaces AS (
        SELECT space_id, terms, field, changed_at, hits, key, count(*) OVER () AS total FROM ordered WHERE n = 1
        ORDER BY terms DESC, field DESC, changed_at DESC, hits DESC, key LIMIT ? OFFSET ?)
      SELECT o.*, s.total FROM ordered o JOIN spaces s ON s.space_id = o.space_id WHERE o.n <= ?
      ORDER BY s.terms DESC, s.field DESC, s.changed_at DESC, s.hits DESC, s.key, o.n`;
    const rows = this.db.prepare(sql).all(...params, request.limit, request.offset, perSpace) as RankedRow[];
    let total = rows[0]?.total;
    if (total === undefined) {
      const countParams: unknown[] = [];
      total = this.db
        .prepare(`SELECT count(DISTINCT space_id) FROM (${this.matching(t, match, countParams, request.spaces)})`)
        .pluck()
        .get(...countParams) as number;
    }
    const pages = this.pageHits(t, match, rows);
    const hits: SpaceHit[] = [];
    for (const page of pages) {
      const last = hits[hits.length - 1];
      if (last?.spaceId === page.spaceId) last.pages.push(page);
      else hits.push({ spaceId: page.spaceId, score: page.score, pages: [page] });
    }
    return Promise.resolve({ hits, total });
  }

  /** The hits of ranked rows, with their matching sections and a snippet of each. */
  private pageHits(t: Tables, match: Match, rows: RankedRow[]): PageHit[] {
    if (rows.length === 0) return [];
    const keys = JSON.stringify(rows.map((row) => row.key));
    const candidates = this.db
      .prepare(`SELECT rowid, section_key, kind FROM ${t.rows} WHERE page_key IN (SELECT value FROM json_each(?))`)
      .all(keys) as { rowid: number; section_key: number | null; kind: number }[];
    const bodies = candidates.filter((c) => c.section_key !== null);
    const snippets = new Map<number, string>();
    // One lookup per candidate text: FTS5 seeks a rowid in the match instead of walking every match. The rowid is
    // cast: beside MATCH, FTS5 ignores a rowid bound as a JavaScript number (a REAL), and answers any match.
    const snip = (table: string, expression: string) => {
      const statement = this.db.prepare(
        `SELECT snippet(${table}, 0, ?, ?, ?, ${SNIPPET_TOKENS}) FROM ${table} WHERE ${table} MATCH ? AND rowid = CAST(? AS INTEGER)`,
      );
      for (const { rowid } of bodies) {
        if (snippets.has(rowid)) continue;
        const text = statement.pluck().get(MATCH_OPEN, MATCH_CLOSE, ELLIPSIS, expression, rowid) as string | undefined;
        if (text !== undefined) snippets.set(rowid, text);
      }
    };
    snip(t.stem, match.stem.join(' OR '));
    if (match.rawPrefix) snip(t.raw, match.rawPrefix.expression);
    const matchedSections = new Map<number, number | undefined>(); // section key → body rowid (if the body matched)
    for (const candidate of candidates) {
      if (candidate.section_key === null || !snippets.has(candidate.rowid)) continue;
      if (candidate.kind === BODY) matchedSections.set(candidate.section_key, candidate.rowid);
      else if (!matchedSections.has(candidate.section_key)) matchedSections.set(candidate.section_key, undefined);
    }
    const sections = new Map<number, SectionHit[]>();
    if (matchedSections.size > 0) {
      const found = this.db
        .prepare(
          `SELECT key, page_key, anchor, title, body FROM ${t.sections}
           WHERE key IN (SELECT value FROM json_each(?)) ORDER BY page_key, ord`,
        )
        .all(JSON.stringify([...matchedSections.keys()])) as {
        key: number;
        page_key: number;
        anchor: string;
        title: string;
        body: string;
      }[];
      for (const section of found) {
        const bodyRow = matchedSections.get(section.key);
        const list = sections.get(section.page_key) ?? [];
        list.push({
          id: section.anchor,
          title: section.title,
          snippet: bodyRow !== undefined ? snippets.get(bodyRow)! : opening(section.body),
        });
        sections.set(section.page_key, list);
      }
    }
    return rows.map((row) => ({
      spaceId: row.space_id,
      pageId: row.page_id,
      title: row.title,
      path: row.path,
      score: row.terms * 10 + row.field,
      sections: sections.get(row.key) ?? [],
    }));
  }

  dropIndex(index: string): Promise<void> {
    const t = tablesOf(index);
    this.db.transaction(() => {
      for (const table of Object.values(t)) this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    })();
    this.ready.delete(index);
    return Promise.resolve();
  }

  replaceIndex(target: string, source: string): Promise<void> {
    const from = this.ensure(source);
    const to = tablesOf(target);
    this.db.transaction(() => {
      for (const table of Object.values(to)) this.db.exec(`DROP TABLE IF EXISTS ${table}`);
      // Index names are global: the source's go, and the target's are made again below.
      for (const name of ['sections_page', 'rows_page']) this.db.exec(`DROP INDEX IF EXISTS "s_${source}_${name}"`);
      for (const [role, table] of Object.entries(from) as [keyof Tables, string][]) {
        this.db.exec(`ALTER TABLE ${table} RENAME TO ${to[role]}`);
      }
    })();
    this.ready.delete(source);
    this.ready.delete(target);
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

interface RankedRow {
  key: number;
  space_id: string;
  page_id: string;
  title: string;
  path: string;
  changed_at: string;
  terms: number;
  field: number;
  hits: number;
  total: number;
}
