import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  type BackgroundWorker,
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
  startBackgroundWorker,
  stopBackgroundWorker,
} from '@app/kernel';
import { MIN_PREFIX, type SearchTerm, parseQuery } from './query-text';
import { WORD, foldedWord, foldedWords, stemOf } from './word-forms';

/** The words of a text to mark (a regular expression of its own: its `lastIndex` is its state). */
const MARKED_WORD = new RegExp(WORD.source, WORD.flags);

export interface SqliteSearchIndexOptions {
  /** Database file (`:memory:` for a throwaway index). */
  file: string;
  busyTimeoutMs?: number;
  /**
   * An organization search reads at most this many matches at once when it walks the spaces of a ranking tier
   * (see `bestPerSpace`). Tests set 0 to read one at a time: one seek per space.
   */
  fewRows?: number;
  /**
   * Queries of at most this many terms are ranked tier by tier (TIERED_TERMS); longer ones read every match.
   * Tests set 0 to compare the two ways.
   */
  tieredTerms?: number;
  /** How many answers are kept for requests made again while the index is unchanged (0: none). */
  cachedAnswers?: number;
  /**
   * After this many pages written to an index (a replay, an import), its FTS5 segments are merged into one, in
   * slices, once writes pause (see `tidy`); 0 never merges.
   */
  tidyAfterPages?: number;
  /** How long writes must pause before the merge starts, in ms. */
  tidyIdleMs?: number;
}

/**
 * The layout of the file. Version 1 (one row of text per title, heading and section body, each in two FTS5
 * tables) and version 2 (one row per page in six FTS5 tables, stemmed by FTS5) are dropped when found: the search
 * projection's own version was raised with each, so it replays.
 */
export const SEARCH_FORMAT = 3;

const NAME = /^[a-z][a-z0-9_]*$/;
/** The fields of a page, strongest first in ranking ("any" is the whole page: title, headings and bodies). */
type Field = 'title' | 'heading' | 'any';
const FIELDS: readonly Field[] = ['title', 'heading', 'any'];
const RANK: Record<Field, number> = { title: 3, heading: 2, any: 1 };
const SNIPPET_WORDS = 24;
const ELLIPSIS = '…';
const DEFAULT_PAGES_PER_SPACE = 5;
/** Between the parts (one per section) of a page's headings and bodies: a separator, never in text. */
const SEP = '\u001e';
const OPEN = '\u0002';
const NOT_SPACE = /\S+/g;
const SPACES = /\s+/g;
const CLOSE = '\u0003';
/**
 * A page's key is its FTS5 rowid: `space ordinal × 2^32 + slot`. The pages of a space are one range of rowids
 * (a space is searched with a rowid range, which FTS5 seeks to), and their slots follow the order of their last
 * change (a later change, a lower slot), so that within a space ascending rowids are the recency order, most
 * recent first: FTS5 reads a doclist forwards, and seeks backwards in a long one several times slower.
 */
const SPACE = 2 ** 32;
const MAX_SPACES = 2 ** 21 - 1; // keys stay exact JavaScript integers
const GAP = 2 ** 16;
const FIRST_SLOT = 2 ** 31;
/** An organization search reads at most this many matches at once when it walks the spaces of a tier. */
const FEW = 4096;
/** How many it reads first. */
const FIRST_READ = 64;
/**
 * Queries of at most this many terms are ranked tier by tier ("these terms, in a title", ...), each tier one FTS5
 * expression; longer ones (their tiers multiply) read every match and rank in SQL.
 */
const TIERED_TERMS = 4;
/** Answers kept by default: an organization's answer is about 100 KB at most (10 spaces of 5 pages). */
const CACHED_ANSWERS = 200;
/** Pages written to an index before its segments are merged into one (a full merge rewrites the whole index). */
const TIDY_AFTER_PAGES = 10_000;
const TIDY_IDLE_MS = 1000;
/**
 * The database pages one slice of the merge writes at most (FTS5 stops between terms: the doclist of a term in
 * nearly every page, `the`, is merged in one slice however small).
 */
const TIDY_SLICE_PAGES = 128;
/** The pause between two slices, in ms, in which this process's writes may take the write lock. */
const TIDY_PAUSE_MS = 2;
/** How long the merge waits before trying a slice again when another connection holds the write lock, in ms. */
const TIDY_BUSY_PAUSE_MS = 50;
/** How long closing the index waits for a merge to stop between two slices before ending its thread, in ms. */
const TIDY_STOP_TIMEOUT_MS = 5000;

/**
 * The thread that merges an index's segments, on a connection of its own: one slice takes about a second on a large
 * index whatever its size (FTS5 merges a term's whole doclist at once), which on the event loop would hold every
 * request that long. It never waits for a lock (`timeout: 0`): when a writer holds it, the slice is tried again
 * later. A 'stop' message ends it between two slices. Plain JavaScript, so that it runs the same from the sources
 * (tests) and the build.
 */
const TIDY_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const { file, table, physical, slicePages, pauseMs, busyPauseMs } = workerData;
const db = new Database(file, { fileMustExist: true, timeout: 0 });
db.pragma('synchronous = NORMAL');
const changes = db.prepare('SELECT total_changes()').pluck();
const merge = db.prepare('INSERT INTO ' + table + ' (' + table + ", rank) VALUES ('merge', ?)");
const merged = db.prepare('DELETE FROM search_unmerged WHERE physical = ?');
let slices = 0;
let stopping = false;
parentPort.on('message', (message) => {
  if (message === 'stop') stopping = true;
});
function finish() {
  db.close();
  parentPort.postMessage({ slices });
  parentPort.close();
}
function slice() {
  if (stopping) return finish();
  try {
    const before = changes.get();
    merge.run(-slicePages);
    // FTS5: a merge that found nothing left to do changes fewer than 2 rows
    if (changes.get() - before >= 2) {
      slices += 1;
      setTimeout(slice, pauseMs);
      return;
    }
    merged.run(physical);
    finish();
  } catch (error) {
    if (error && error.code === 'SQLITE_BUSY') {
      setTimeout(slice, busyPauseMs);
      return;
    }
    throw error;
  }
}
slice();
`;

interface Tidying {
  /** Waits for writes to pause; once it fired, the merge runs in `worker`. */
  timer: NodeJS.Timeout;
  worker?: BackgroundWorker;
  slices: number;
  done: () => void;
}

/** Freezes a value and everything in it (an answer kept and given to several callers). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Every word of a page is indexed in several forms, each a token of its own: a one-letter marker, then the folded
 * word (see word-forms.ts), stemmed or as written, and for the whole page, its title or its headings. Queries
 * name the form they want, so one FTS5 table answers for every field and form, and one expression can combine
 * them (all terms, one of them in a title). FTS5's `ascii` tokenizer splits on spaces and leaves the tokens as
 * they are (markers and folded words hold no ASCII punctuation).
 */
const FORM = {
  stem: { any: 's', title: 't', heading: 'h' },
  written: { any: 'w', title: 'i', heading: 'j' },
  /** The first 4, 5 and 6 letters of written words: a prefix typed is one token, no FTS5 prefix query. */
  prefix: { any: 'p', title: 'q', heading: 'k' },
} as const satisfies Record<string, Record<Field, string>>;
/**
 * Between the title, each heading and each section's body in the stemmed runs, so that a phrase does not run
 * from one into the next: a token no query names (query tokens are a marker and a word).
 */
const BARRIER = 'z';
/** The prefixes of written words indexed as tokens of their own (FORM.prefix). */
const SHORTEST_PREFIX = MIN_PREFIX;
const LONGEST_PREFIX = 6;
/**
 * A longer prefix is asked as the written words it begins (found in the vocabulary table, words of more than
 * LONGEST_PREFIX letters ever indexed) when they are at most this many; beyond, as an FTS5 prefix query (which
 * merges the doclists of all those words over the whole index first).
 */
const MAX_PREFIX_WORDS = 32;

interface Tables {
  physical: number;
  pages: string;
  spaces: string;
  /** The forms of the words of each page (contentless: the text is in the pages table). */
  words: string;
  /** The written words longer than the prefix indexes ever indexed (kept when pages go: a word too many costs little). */
  vocabulary: string;
  byChange: string;
}

function physicalTables(id: number): Tables {
  return {
    physical: id,
    pages: `si${id}_pages`,
    spaces: `si${id}_spaces`,
    words: `si${id}_words`,
    vocabulary: `si${id}_vocabulary`,
    byChange: `si${id}_pages_by_change`,
  };
}

function checkName(index: string): void {
  if (typeof index !== 'string' || !NAME.test(index)) throw new Error(`invalid index name ${JSON.stringify(index)}`);
}

/**
 * What FTS5 indexes of a page: its stemmed words in order (title, then each heading, then each section's body,
 * with barriers between, so that a phrase never runs from one into the next), its stemmed title and headings
 * again (for phrases found in them), and its written words, distinct (only prefixes are asked of them). Its
 * written words longer than the prefix indexes are added to `vocabulary`.
 */
function tokensOf(title: string, headings: string, body: string, vocabulary: Set<string>): string {
  const titleWords = [foldedWords(title)];
  const headingWords = headings.split(SEP).map(foldedWords);
  const bodyWords = body.split(SEP).map(foldedWords);
  const tokens: string[] = [];
  const stemmed = (marker: string, parts: string[][]) => {
    parts.forEach((words, n) => {
      if (n > 0) tokens.push(BARRIER);
      for (const word of words) tokens.push(marker + stemOf(word));
    });
  };
  const all = [...titleWords, ...headingWords, ...bodyWords].flat();
  for (const word of all) if (word.length > LONGEST_PREFIX) vocabulary.add(word);
  const written = (field: Field, words: string[]) => {
    const prefixes = new Set<string>();
    for (const word of new Set(words)) {
      tokens.push(FORM.written[field] + word);
      for (let length = SHORTEST_PREFIX; length <= Math.min(LONGEST_PREFIX, word.length); length++) {
        const last = word.charCodeAt(length - 1);
        // never half of a character outside the Basic Multilingual Plane (a high surrogate)
        if (last < 0xd800 || last > 0xdbff) prefixes.add(word.slice(0, length));
      }
    }
    for (const prefix of prefixes) tokens.push(FORM.prefix[field] + prefix);
  };
  stemmed(FORM.stem.any, [...titleWords, ...headingWords, ...bodyWords]);
  stemmed(FORM.stem.title, titleWords);
  stemmed(FORM.stem.heading, headingWords);
  written('any', all);
  written('title', titleWords.flat());
  written('heading', headingWords.flat());
  return tokens.join(' ');
}

/** The first words of a text, for a section found by its heading only. */
function opening(text: string, words = SNIPPET_WORDS): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(' ') : `${all.slice(0, words).join(' ')}${ELLIPSIS}`;
}

/** A term as FTS5 expressions, one per field. */
type TermExpressions = Record<Field, string>;

/** One ranking tier: pages holding exactly `terms` of the query's terms, the strongest of them in `field`. */
interface Tier {
  /**
   * Pages holding every term of one of the tier's sets of terms, one of them in the field. It also finds pages of
   * earlier tiers (more terms, or a stronger field), never of later ones, so it gives exactly the tier's pages
   * where no page of an earlier tier is: in a space placed at this tier, or once those pages are passed over.
   * Excluding them in the expression would cost a seek more per term in every read.
   */
  expression: string;
  terms: number;
  field: number;
}

const or = (parts: string[]) => (parts.length === 1 ? parts[0] : parts.map((part) => `(${part})`).join(' OR '));
const and = (parts: string[]) => (parts.length === 1 ? parts[0] : parts.map((part) => `(${part})`).join(' AND '));

/** The subsets of `k` of the indexes 0..n-1. */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k), ...subsets(n - 1, k - 1).map((subset) => [...subset, n - 1])];
}

/** A run of characters a query matched: [start, end). */
type Span = [number, number];

/** How far a text was scanned for a query's matches, and what was found (see `Query.scan`). */
class Scan {
  readonly spans: Span[] = [];
  /** Where the scan goes on from. */
  at = 0;
  /** Phrases under way: the words matched so far, from `start`. */
  pending: { phrase: string[]; next: number; start: number }[] = [];
}

/** A query compiled: its terms as expressions, and what marks the words it matched in a text. */
class Query {
  /** Per term, its expressions. */
  readonly terms: TermExpressions[] = [];
  /** Any term anywhere: what the query matches. */
  readonly anyTerm: string;
  private readonly stems = new Set<string>();
  private readonly phrases: string[][] = [];
  /** The first letters of the query's stems, phrases and prefix. */
  private readonly firsts = new Set<string>();
  /** The folded prefix of the last word, when it is one. */
  private readonly prefix: string | null = null;

  /**
   * `wordsBeginning` lists the written words that begin with a prefix longer than the prefix indexes, or null
   * when there are too many (FTS5 would otherwise merge the doclists of all of them over the whole index first).
   */
  constructor(terms: SearchTerm[], wordsBeginning: (prefix: string) => string[] | null) {
    for (const term of terms) {
      const folded = (term.kind === 'word' ? [term.word] : term.words).map(foldedWord).filter(Boolean);
      if (folded.length === 0) continue;
      const stems = folded.map(stemOf);
      const prefix = term.kind === 'word' && term.prefix ? folded[0] : null;
      if (stems.length === 1) this.stems.add(stems[0]);
      else this.phrases.push(stems);
      if (prefix !== null) this.prefix = prefix;
      const indexed = prefix !== null && prefix.length >= SHORTEST_PREFIX && prefix.length <= LONGEST_PREFIX;
      const words = prefix !== null && prefix.length > LONGEST_PREFIX ? wordsBeginning(prefix) : null;
      const expression = (field: Field) => {
        const marker = FORM.stem[field];
        const stemmed = `"${stems.map((stem) => marker + stem).join(' ')}"`;
        if (prefix === null) return stemmed;
        if (indexed) return `${stemmed} OR "${FORM.prefix[field]}${prefix}"`;
        if (words === null) return `${stemmed} OR "${FORM.written[field]}${prefix}" *`;
        return [stemmed, ...words.map((word) => `"${FORM.written[field]}${word}"`)].join(' OR ');
      };
      this.terms.push({ title: expression('title'), heading: expression('heading'), any: expression('any') });
    }
    this.anyTerm = or(this.terms.map((term) => term.any));
    for (const word of [...this.stems, ...this.phrases.map((phrase) => phrase[0]), this.prefix ?? '']) {
      if (word !== '') this.firsts.add(word[0]);
    }
  }

  /**
   * The ranking tiers, best first: pages with every term before those with fewer, then the strongest field any of
   * their terms is in (a title, a heading, anywhere). Within a tier, recency decides.
   */
  tiers(): Tier[] {
    const n = this.terms.length;
    const tiers: Tier[] = [];
    for (let k = n; k >= 1; k--) {
      const sets = subsets(n, k);
      for (const field of FIELDS) {
        const parts = sets.map((set) => {
          const own = set.map((i) => this.terms[i]);
          // One term in a title or a heading is in the page: the field alone says so.
          return and(
            (field === 'any' || own.length > 1 ? [and(own.map((term) => term.any))] : []).concat(
              field === 'any' ? [] : [or(own.map((term) => term[field]))],
            ),
          );
        });
        tiers.push({ expression: or(parts), terms: k, field: RANK[field] });
      }
    }
    return tiers;
  }

  /**
   * Where the query matched in a text, as spans of characters: words by their stem or the prefix, phrases whole.
   * A word whose first letter begins no stem, phrase or prefix of the query is passed over unfolded (stemming
   * keeps a word's first letter), unless a phrase is under way. The scan goes on while `more(spans, end)` (`end`:
   * where the last word scanned ends) says so or a phrase is under way, and to the end of the text at most: every
   * span starting before where it stopped is then known.
   */
  private scan(text: string, more: (spans: readonly Span[], end: number) => boolean, from = new Scan()): Scan {
    const { spans } = from;
    MARKED_WORD.lastIndex = from.at;
    for (let match = MARKED_WORD.exec(text); match !== null; match = MARKED_WORD.exec(text)) {
      const written = match[0];
      const start = match.index;
      const end = start + written.length;
      from.at = end;
      const first = written.charCodeAt(0) < 128 ? written[0].toLowerCase() : null;
      if (from.pending.length === 0 && first !== null && !this.firsts.has(first)) {
        if (!more(spans, end)) return from;
        continue;
      }
      const folded = foldedWord(written);
      if (folded !== '') {
        // not a word to the index otherwise: phrases run over it
        const stem = stemOf(folded);
        const going: typeof from.pending = [];
        for (const under of from.pending) {
          if (under.phrase[under.next] !== stem) continue;
          if (under.next + 1 === under.phrase.length) spans.push([under.start, end]);
          else going.push({ ...under, next: under.next + 1 });
        }
        from.pending = going;
        if (this.stems.has(stem) || (this.prefix !== null && folded.startsWith(this.prefix))) spans.push([start, end]);
        for (const phrase of this.phrases) if (phrase[0] === stem) from.pending.push({ phrase, next: 1, start });
      }
      if (from.pending.length === 0 && !more(spans, end)) return from;
    }
    from.at = text.length;
    from.pending = [];
    return from;
  }

  /** Whether the query matches anywhere in a text. */
  matches(text: string): boolean {
    return this.scan(text, (spans) => spans.length === 0).spans.length > 0;
  }

  /**
   * The snippet of a text where the query matched (null when it did not): a window of SNIPPET_WORDS words around
   * the first match, the matched words marked. Words are runs of anything but white space; the text is scanned
   * only as far as the window reaches, and only the window is marked.
   */
  snippet(text: string): string | null {
    const scan = this.scan(text, (spans) => spans.length === 0);
    if (scan.spans.length === 0) return null;
    const earliest = Math.min(...scan.spans.map((span) => span[0]));
    // The words' bounds, as far as the window and one word more: the window starts 4 words before the first
    // match, or earlier when fewer than SNIPPET_WORDS words follow it, which then is the text's end.
    const bounds: number[] = [];
    let first = 0;
    NOT_SPACE.lastIndex = 0;
    for (let match = NOT_SPACE.exec(text); match !== null; match = NOT_SPACE.exec(text)) {
      if (match.index <= earliest) first = bounds.length / 2;
      else if (bounds.length / 2 > Math.max(0, first - 4) + SNIPPET_WORDS) break;
      bounds.push(match.index, match.index + match[0].length);
    }
    const count = bounds.length / 2;
    let from = 0;
    if (count > SNIPPET_WORDS) from = Math.max(0, Math.min(first - 4, count - SNIPPET_WORDS));
    const to = Math.min(count, from + SNIPPET_WORDS);
    const start = bounds[2 * from];
    const end = bounds[2 * to - 1];
    // every span starting in the window known
    this.scan(text, (_, at) => at < end, scan);
    const spans = scan.spans.filter(([a, b]) => a < end && b > start).sort((a, b) => a[0] - b[0]);
    // overlapping spans marked as one, each cut at the window's edges
    let marked = '';
    let at = start;
    let open: Span | null = null;
    const close = () => {
      if (!open) return;
      marked += `${OPEN}${text.slice(open[0], open[1])}${CLOSE}`;
      at = open[1];
      open = null;
    };
    for (const [a, b] of spans) {
      if (open && a < open[1]) {
        open[1] = Math.min(end, Math.max(open[1], b));
        continue;
      }
      close();
      const from = Math.max(start, a);
      marked += text.slice(at, from);
      open = [from, Math.min(end, b)];
    }
    close();
    marked += text.slice(at, end);
    const out = `${from > 0 ? ELLIPSIS : ''}${marked.replace(SPACES, ' ')}${to < count ? ELLIPSIS : ''}`;
    return out
      .split(OPEN)
      .join(MATCH_OPEN)
      .split(CLOSE)
      .join(MATCH_CLOSE)
      .split(`${MATCH_CLOSE}${MATCH_OPEN}`)
      .join('');
  }
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
 * The embedded search index: SQLite FTS5 in its own file. One FTS5 row per page holds every form of its words
 * (stemmed and as written, for the whole page, its title and its headings, see FORM), stemmed and folded here
 * (word-forms.ts). A query of a few terms is ranked tier by tier ("all terms, one in a title", ...), each tier
 * one FTS5 expression read in rowid order (the recency order within a space) with a LIMIT, so a search reads
 * about as many rows as it answers; the matched words of the pages answered are marked here too.
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly db: Database.Database;
  private readonly ready = new Map<string, Tables>();
  private readonly statements = new Map<string, Database.Statement>();
  private readonly few: number;
  private readonly tieredTerms: number;
  /** Answers kept (see `cached`), least recently used first, while the file's `data_version` is this one. */
  private readonly answers = new Map<string, SearchAnswer<unknown>>();
  private readonly cacheSize: number;
  private dataVersion = -1;
  private readonly tidyAfter: number;
  private readonly tidyIdleMs: number;
  /** The merge of an index's segments waiting for writes to pause, or under way, by index name. */
  private readonly tidying = new Map<string, Tidying>();
  /** The database file (a merge opens it again in its own thread). */
  private readonly file: string;
  private readonly tidied: Promise<number>[] = [];

  constructor(options: SqliteSearchIndexOptions) {
    if (isSqliteFile(options.file)) preparePrivateFile(options.file);
    this.file = options.file;
    this.db = new Database(options.file);
    this.few = options.fewRows ?? FEW;
    this.tieredTerms = options.tieredTerms ?? TIERED_TERMS;
    this.cacheSize = Math.max(0, Math.floor(options.cachedAnswers ?? CACHED_ANSWERS));
    this.tidyAfter = Math.max(0, Math.floor(options.tidyAfterPages ?? TIDY_AFTER_PAGES));
    this.tidyIdleMs = Math.max(0, options.tidyIdleMs ?? TIDY_IDLE_MS);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.migrate();
  }

  /** An index file of another format is emptied (its indexes are rebuilt by the search projection's replay). */
  private migrate(): void {
    this.db.transaction(() => {
      this.db.exec('CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      // Pages written to each physical index since its segments were last merged (see `tidy`).
      this.db.exec('CREATE TABLE IF NOT EXISTS search_unmerged (physical INTEGER PRIMARY KEY, pages INTEGER NOT NULL)');
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
        CREATE INDEX IF NOT EXISTS ${tables.byChange} ON ${tables.pages} (space_id, changed_at, key DESC);
        CREATE VIRTUAL TABLE IF NOT EXISTS ${tables.words} USING fts5(words, content = '', contentless_delete = 1,
          tokenize = 'ascii');
        CREATE TABLE IF NOT EXISTS ${tables.vocabulary} (word TEXT PRIMARY KEY) WITHOUT ROWID;
      `);
      return tables;
    })();
    this.ready.set(index, t);
    this.tidyIfDue(index, t);
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
    this.answers.clear();
    const vocabulary = new Set<string>();
    let unmerged = 0;
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
        if (op.kind === 'putPage') this.addPage(t, op.spaceId, op.page, vocabulary);
      }
      const add = this.statement(`INSERT OR IGNORE INTO ${t.vocabulary} (word) VALUES (?)`);
      for (const word of vocabulary) add.run(word);
      unmerged = this.statement(
        `INSERT INTO search_unmerged (physical, pages) VALUES (?, ?)
         ON CONFLICT (physical) DO UPDATE SET pages = pages + excluded.pages RETURNING pages`,
      )
        .pluck()
        .get(t.physical, ops.length) as number;
    })();
    if (this.tidyAfter > 0 && unmerged >= this.tidyAfter) this.scheduleTidy(index);
    return Promise.resolve();
  }

  /** Schedules the merge of an index left unmerged (by a process stopped before it, or a rebuild put in place). */
  private tidyIfDue(index: string, t: Tables): void {
    if (this.tidyAfter === 0) return;
    const unmerged = this.statement('SELECT pages FROM search_unmerged WHERE physical = ?').pluck().get(t.physical) as
      number | undefined;
    if (unmerged !== undefined && unmerged >= this.tidyAfter) this.scheduleTidy(index);
  }

  /**
   * Merges an index's FTS5 segments into one once writes have paused for `tidyIdleMs` (each write puts it off),
   * in slices of TIDY_SLICE_PAGES database pages, in a thread of its own (`TIDY_WORKER_SOURCE`). A replay leaves
   * 10 to 20 segments, and every read starts with a seek in each segment of each of its terms: one segment makes a
   * first search several times cheaper. Answers do not change, so the answers kept stay valid (the merge's commits
   * make this connection check them again, as any other connection's do).
   */
  private scheduleTidy(index: string): void {
    const known = this.tidying.get(index);
    if (known) {
      // under way: it goes on; waiting: wait again from this write
      if (!known.worker) known.timer.refresh();
      return;
    }
    let done!: () => void;
    this.tidied.push(new Promise<number>((resolve) => (done = () => resolve(entry.slices))));
    const entry = { timer: setTimeout(() => this.tidySlice(index), this.tidyIdleMs).unref(), slices: 0, done };
    this.tidying.set(index, entry);
  }

  private tidySlice(index: string): void {
    const entry = this.tidying.get(index);
    const t = this.ready.get(index);
    if (!entry || entry.worker || !this.db.open || !t || !isSqliteFile(this.file)) {
      if (entry && !entry.worker) {
        this.tidying.delete(index);
        entry.done();
      }
      return;
    }
    // a merge never keeps the process alive by itself (closing the index stops it)
    const background = startBackgroundWorker(TIDY_WORKER_SOURCE, {
      driver: require.resolve('better-sqlite3'),
      file: this.file,
      table: t.words,
      physical: t.physical,
      slicePages: TIDY_SLICE_PAGES,
      pauseMs: TIDY_PAUSE_MS,
      busyPauseMs: TIDY_BUSY_PAUSE_MS,
    });
    const { worker } = background;
    entry.worker = background;
    worker.on('message', (message: { slices?: unknown }) => {
      if (typeof message.slices === 'number') entry.slices = message.slices;
    });
    // A merge that failed leaves the index as it was, still counted as unmerged: the next writes or the next
    // process opening it try again.
    worker.on('error', () => undefined);
    void background.ended.then(() => {
      if (this.tidying.get(index) === entry) this.tidying.delete(index);
      entry.done();
    });
  }

  /** Resolves once no merge is waiting or under way; to how many slices merged something (for tests and benches). */
  async settled(): Promise<number> {
    let slices = 0;
    while (this.tidied.length > 0) slices += await this.tidied.shift()!;
    return slices;
  }

  /** Stops merges waiting or under way (one under way ends after its current slice); resolves once they have. */
  private stopTidying(): Promise<void> {
    const ending: Promise<void>[] = [];
    for (const entry of this.tidying.values()) {
      clearTimeout(entry.timer);
      const { worker } = entry;
      if (!worker) {
        entry.done();
        continue;
      }
      ending.push(stopBackgroundWorker(worker, TIDY_STOP_TIMEOUT_MS));
    }
    this.tidying.clear();
    return Promise.all(ending).then(() => undefined);
  }

  private removePage(t: Tables, key: number): void {
    this.statement(`DELETE FROM ${t.words} WHERE rowid = ?`).run(key);
    this.statement(`DELETE FROM ${t.pages} WHERE key = ?`).run(key);
  }

  private addPage(t: Tables, spaceId: string, page: IndexedPage, vocabulary: Set<string>): void {
    const clean = (text: string) => text.split(SEP).join(' ');
    const headings = page.sections.map((section) => (section.id === '' ? '' : clean(section.title))).join(SEP);
    const body = page.sections.map((section) => clean(section.body)).join(SEP);
    const sections = JSON.stringify(page.sections.map((section) => [section.id, section.title]));
    const key = this.keyFor(t, spaceId, page.changedAt);
    this.statement(
      `INSERT INTO ${t.pages} (key, space_id, page_id, path, changed_at, digest, sections, title, headings, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(key, spaceId, page.id, page.path, page.changedAt, page.digest, sections, page.title, headings, body);
    this.indexText(t, key, page.title, headings, body, vocabulary);
  }

  private indexText(
    t: Tables,
    key: number,
    title: string,
    headings: string,
    body: string,
    vocabulary = new Set<string>(),
  ): void {
    this.statement(`INSERT INTO ${t.words} (rowid, words) VALUES (?, ?)`).run(
      key,
      tokensOf(title, headings, body, vocabulary),
    );
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
   * A key for a page of a space changed at `changedAt`: in the space's range, below the keys of pages changed
   * before or at the same time, above those changed later (ascending keys are the recency order, most recent
   * first: FTS5 seeks far faster forwards than backwards). Slots are spaced out so that a change older than the
   * latest fits between two; when none is free, the space's pages are given new keys.
   */
  private keyFor(t: Tables, spaceId: string, changedAt: string): number {
    const base = this.spaceOrdinal(t, spaceId) * SPACE;
    const older = this.statement(
      `SELECT key FROM ${t.pages} WHERE space_id = ? AND changed_at <= ? ORDER BY changed_at DESC, key LIMIT 1`,
    )
      .pluck()
      .get(spaceId, changedAt) as number | undefined;
    const newer = this.statement(
      `SELECT key FROM ${t.pages} WHERE space_id = ? AND changed_at > ? ORDER BY changed_at, key DESC LIMIT 1`,
    )
      .pluck()
      .get(spaceId, changedAt) as number | undefined;
    const low = newer === undefined ? undefined : newer - base;
    const high = older === undefined ? undefined : older - base;
    let slot: number | undefined;
    if (low === undefined) slot = high === undefined ? FIRST_SLOT : high - GAP;
    else if (high === undefined) slot = low + GAP;
    else slot = Math.floor((low + high) / 2);
    if (slot < 0 || slot >= SPACE || (low !== undefined && slot <= low) || (high !== undefined && slot >= high)) {
      this.respace(t, spaceId, base);
      return this.keyFor(t, spaceId, changedAt);
    }
    return base + slot;
  }

  /** Gives the pages of a space evenly spaced keys, most recent first (rare: when no slot is free). */
  private respace(t: Tables, spaceId: string, base: number): void {
    const pages = this.statement(`SELECT * FROM ${t.pages} WHERE space_id = ? ORDER BY changed_at DESC, key`).all(
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

  private query(t: Tables, text: string): Query {
    const words = this.statement(`SELECT word FROM ${t.vocabulary} WHERE word >= ? AND word < ? ORDER BY word LIMIT ?`);
    return new Query(parseQuery(text), (prefix) => {
      const found = words.pluck().all(prefix, `${prefix}\u{10FFFF}`, MAX_PREFIX_WORDS + 1) as string[];
      return found.length > MAX_PREFIX_WORDS ? null : found;
    });
  }

  /** A space's range of keys, as SQL and its two bounds. */
  private static readonly RANGE = 'rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)';

  /** The keys of a space's pages an expression matches, most recent first (at most `limit`). */
  private recent(t: Tables, expression: string, ord: number, limit: number): number[] {
    return this.statement(
      `SELECT rowid FROM ${t.words} WHERE ${t.words} MATCH ? AND ${SqliteSearchIndex.RANGE} ORDER BY rowid LIMIT ?`,
    )
      .pluck()
      .all(expression, ord * SPACE, ord * SPACE + SPACE - 1, limit) as number[];
  }

  /**
   * The best pages of one space, best first, from the `skip`th, at most `want`: tier by tier (from `from`, the
   * first tier with pages in the space), each tier's pages most recent first out of FTS5, so that only the rows
   * answered (and skipped) are read. A tier's expression also finds the pages of earlier tiers (see `Tier`):
   * those were all read before it, and are passed over.
   */
  private bestInSpace(t: Tables, tiers: Tier[], ord: number, skip: number, want: number, from = 0): Ranked[] {
    const taken: Ranked[] = [];
    const seen = new Set<number>();
    let left = skip;
    for (let n = from; n < tiers.length && taken.length < want; n++) {
      const keys = this.recent(t, tiers[n].expression, ord, seen.size + left + want - taken.length);
      const own = keys.filter((key) => !seen.has(key));
      for (const key of own.slice(left)) {
        if (taken.length < want) taken.push({ key, terms: tiers[n].terms, field: tiers[n].field });
      }
      left = Math.max(0, left - own.length);
      for (const key of own) seen.add(key);
    }
    return taken;
  }

  /** How many pages of a space an expression matches. */
  private countInSpace(t: Tables, expression: string, ord: number): number {
    return this.statement(`SELECT count(*) FROM ${t.words} WHERE ${t.words} MATCH ? AND ${SqliteSearchIndex.RANGE}`)
      .pluck()
      .get(expression, ord * SPACE, ord * SPACE + SPACE - 1) as number;
  }

  /**
   * Of the spaces `among`, those where an expression matches, each with its best (most recent) matching key. The
   * spaces are walked in order, each read taking the first matches from a space on, so it gives that space's best
   * (or skips every space before it without a match) and the best of any later space it reaches. A read costs
   * far more to start (a seek in every segment of every term) than per row, so the number of rows read at once
   * grows while a read reaches several spaces (few matches per space) and shrinks while it stays in one.
   */
  private bestPerSpace(t: Tables, expression: string, among: Set<number>): Map<number, number> {
    const best = new Map<number, number>();
    const ords = [...among].sort((a, b) => a - b);
    const highest = ords[ords.length - 1] * SPACE + SPACE - 1;
    const most = Math.max(1, this.few);
    const least = Math.min(FIRST_READ / 4, most);
    let limit = Math.min(FIRST_READ, most);
    const read = this.statement(
      `SELECT rowid FROM ${t.words} WHERE ${t.words} MATCH ? AND ${SqliteSearchIndex.RANGE} ORDER BY rowid LIMIT ?`,
    ).pluck();
    for (let i = 0; i < ords.length;) {
      const keys = read.all(expression, ords[i] * SPACE, highest, limit) as number[];
      let reached = 0;
      let last = -1;
      for (const key of keys) {
        const ord = Math.floor(key / SPACE);
        if (ord === last) continue;
        last = ord;
        reached++;
        if (among.has(ord) && !best.has(ord)) best.set(ord, key);
      }
      if (keys.length < limit) break; // nothing more from this space on
      while (i < ords.length && ords[i] <= last) i++;
      limit = reached > 1 ? Math.min(most, limit * 4) : Math.max(least, Math.floor(limit / 4));
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
      return { sql: `AND ${SqliteSearchIndex.RANGE}`, params: [ords[0] * SPACE, ords[0] * SPACE + SPACE - 1] };
    }
    return { sql: `AND (rowid / ${SPACE}) IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(ords)] };
  }

  /**
   * The SQL of the matching pages among some rowids (`within`): `key`, `terms` (how many of the query's terms
   * the page holds) and `field` (the strongest field any term was found in). One FTS5 query per term and field,
   * each restricted to the rowids of the allowed spaces before any row leaves FTS5. The general way, for queries
   * of many terms and searches of pages across spaces: it reads every match.
   */
  private matching(t: Tables, query: Query, within: string, params: unknown[], withinParams: unknown[]): string {
    const parts: string[] = [];
    query.terms.forEach((term, n) => {
      for (const field of FIELDS) {
        parts.push(
          `SELECT rowid AS key, ${n} AS term, ${RANK[field]} AS field FROM ${t.words} WHERE ${t.words} MATCH ? ${within}`,
        );
        params.push(term[field], ...withinParams);
      }
    });
    return `SELECT key, count(DISTINCT term) AS terms, max(field) AS field FROM (${parts.join(' UNION ALL ')}) GROUP BY key`;
  }

  searchPages(index: string, request: SearchRequest & { group: 'page' }): Promise<SearchAnswer<PageHit>> {
    return Promise.resolve(this.cached(index, request, () => this.findPages(index, request)));
  }

  searchSpaces(index: string, request: SearchRequest & { group: 'space' }): Promise<SearchAnswer<SpaceHit>> {
    return Promise.resolve(this.cached(index, request, () => this.findSpaces(index, request)));
  }

  /**
   * An answer given before to the same request, while nothing was written to the index since (by this
   * connection, or by any other: SQLite's `data_version`); otherwise the answer found now, kept. A search box
   * asks the same words again and again as they are typed, and the same query is sent by many readers. Answers
   * kept are frozen: callers only read them.
   */
  private cached<H>(index: string, request: SearchRequest, find: () => SearchAnswer<H>): SearchAnswer<H> {
    if (this.cacheSize === 0) return find();
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.dataVersion) {
      this.answers.clear();
      this.dataVersion = version;
    }
    // The spaces by digest: an organization may have thousands, and a key is kept with its answer.
    const spaces = createHash('sha256').update(request.spaces.join('\n')).digest('base64');
    const key = JSON.stringify([
      index,
      request.group,
      request.text,
      request.offset,
      request.limit,
      request.pagesPerSpace ?? null,
      spaces,
    ]);
    const known = this.answers.get(key) as SearchAnswer<H> | undefined;
    if (known) {
      // the most recently used last: the least recently used is the first to go
      this.answers.delete(key);
      this.answers.set(key, known);
      return known;
    }
    const answer = deepFreeze(find());
    this.answers.set(key, answer);
    if (this.answers.size > this.cacheSize) this.answers.delete(this.answers.keys().next().value as string);
    return answer;
  }

  private findPages(index: string, request: SearchRequest): SearchAnswer<PageHit> {
    const t = this.ensure(index);
    const query = this.query(t, request.text);
    if (query.terms.length === 0 || request.spaces.length === 0) return { hits: [], total: 0 };
    const ords = this.ordinals(t, request.spaces);
    if (ords.length === 0) return { hits: [], total: 0 };
    if (ords.length === 1 && query.terms.length <= this.tieredTerms) {
      const total = this.countInSpace(t, query.anyTerm, ords[0]);
      const best = total === 0 ? [] : this.bestInSpace(t, query.tiers(), ords[0], request.offset, request.limit);
      return { hits: this.pageHits(t, query, best), total };
    }
    const within = this.within(ords);
    const params: unknown[] = [];
    const matching = this.matching(t, query, within.sql, params, within.params);
    // Within a space the key is the recency order; across spaces the page's change time decides.
    const recency =
      ords.length === 1
        ? 'm.key'
        : `(SELECT changed_at FROM ${t.pages} WHERE key = m.key) DESC, m.key / ${SPACE} DESC, m.key`;
    const rows = this.statement(
      `SELECT m.*, count(*) OVER () AS total FROM (${matching}) m
       ORDER BY m.terms DESC, m.field DESC, ${recency} LIMIT ? OFFSET ?`,
    ).all(...params, request.limit, request.offset) as (Ranked & { total: number })[];
    const total =
      rows[0]?.total ??
      (this.statement(`SELECT count(*) FROM (${matching})`)
        .pluck()
        .get(...params) as number);
    return { hits: this.pageHits(t, query, rows), total };
  }

  private findSpaces(index: string, request: SearchRequest): SearchAnswer<SpaceHit> {
    const t = this.ensure(index);
    const query = this.query(t, request.text);
    if (query.terms.length === 0 || request.spaces.length === 0) return { hits: [], total: 0 };
    const ords = this.ordinals(t, request.spaces);
    if (ords.length === 0) return { hits: [], total: 0 };
    const perSpace = request.pagesPerSpace ?? DEFAULT_PAGES_PER_SPACE;
    const { rows, total } =
      query.terms.length <= this.tieredTerms
        ? this.rankSpacesByTier(t, query, ords, request.offset, request.limit, perSpace)
        : this.rankSpaces(t, query, ords, request.offset, request.limit, perSpace);
    const hits: SpaceHit[] = [];
    for (const page of this.pageHits(t, query, rows)) {
      const last = hits[hits.length - 1];
      if (last?.spaceId === page.spaceId) last.pages.push(page);
      else hits.push({ spaceId: page.spaceId, score: page.score, pages: [page] });
    }
    return { hits, total };
  }

  /**
   * Spaces ranked by their best page without reading every match: tier by tier, the spaces not yet placed that
   * have a page in the tier, each with its most recent one there (a space is placed at the first tier it is in),
   * until enough spaces are placed to answer (the others are only counted); within a tier, the spaces whose best
   * page changed last first. The spaces answered then get their best pages.
   */
  private rankSpacesByTier(t: Tables, query: Query, ords: number[], offset: number, limit: number, perSpace: number) {
    const tiers = query.tiers();
    const remaining = new Set(ords);
    const found: { ord: number; key: number; tier: number; changedAt: string }[] = [];
    // Spaces found in later tiers than the last one answered are only counted, with the simplest expression.
    let later = 0;
    for (let n = 0; n < tiers.length && remaining.size > 0; n++) {
      if (found.length >= offset + limit) {
        later = this.bestPerSpace(t, query.anyTerm, remaining).size;
        break;
      }
      for (const [ord, key] of this.bestPerSpace(t, tiers[n].expression, remaining)) {
        remaining.delete(ord);
        found.push({ ord, key, tier: n, changedAt: '' });
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
        a.tier - b.tier || (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0) || b.ord - a.ord,
    );
    const rows = found
      .slice(offset, offset + limit)
      .flatMap((space) => this.bestInSpace(t, tiers, space.ord, 0, perSpace, space.tier));
    return { rows, total: found.length + later };
  }

  /** Spaces for a query of many terms: every match is read and ranked in SQL. */
  private rankSpaces(t: Tables, query: Query, ords: number[], offset: number, limit: number, perSpace: number) {
    const within = this.within(ords);
    const params: unknown[] = [];
    const matching = this.matching(t, query, within.sql, params, within.params);
    // A space ranks as its best page (within a space the key is the recency order); each listed with its best.
    const rows = this.statement(
      `WITH ranked AS (
         SELECT key, terms, field, key / ${SPACE} AS ord,
           row_number() OVER (PARTITION BY key / ${SPACE} ORDER BY terms DESC, field DESC, key) AS n
         FROM (${matching})),
       spaces AS (
         SELECT r.ord, r.terms, r.field, p.changed_at, r.key, count(*) OVER () AS total
         FROM ranked r JOIN ${t.pages} p ON p.key = r.key WHERE r.n = 1
         ORDER BY r.terms DESC, r.field DESC, p.changed_at DESC, r.ord DESC LIMIT ? OFFSET ?)
       SELECT r.key, r.terms, r.field, s.total FROM spaces s JOIN ranked r ON r.ord = s.ord AND r.n <= ?
       ORDER BY s.terms DESC, s.field DESC, s.changed_at DESC, s.ord DESC, r.n`,
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
   * back, and their headings and bodies marked where the query matched.
   */
  private pageHits(t: Tables, query: Query, rows: Ranked[]): PageHit[] {
    if (rows.length === 0) return [];
    const read = this.statement(
      `SELECT key, space_id, page_id, title, path, changed_at, headings, body, sections FROM ${t.pages} WHERE key = ?`,
    );
    return rows.map((row) => {
      const page = read.get(row.key) as StoredPage;
      const headings = page.headings.split(SEP);
      const bodies = page.body.split(SEP);
      const sections: SectionHit[] = [];
      (JSON.parse(page.sections) as [string, string][]).forEach(([id, title], i) => {
        const body = bodies[i] ?? '';
        const snippet = query.snippet(body);
        if (snippet !== null) sections.push({ id, title, snippet });
        else if (id !== '' && query.matches(headings[i] ?? '')) sections.push({ id, title, snippet: opening(body) });
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
    for (const table of [t.words, t.vocabulary, t.pages, t.spaces]) {
      this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    }
    this.db.prepare('DELETE FROM search_unmerged WHERE physical = ?').run(physical);
    this.db.prepare('DELETE FROM search_indexes WHERE name = ?').run(index);
  }

  private forget(): void {
    void this.stopTidying();
    this.ready.clear();
    this.statements.clear();
    this.answers.clear();
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

  async close(): Promise<void> {
    await this.stopTidying();
    if (this.db.open) this.db.close();
  }
}
