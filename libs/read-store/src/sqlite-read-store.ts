import Database from 'better-sqlite3';
import {
  type Checkpoint,
  type Doc,
  type FieldCondition,
  type Filter,
  type FindCursor,
  type FindOptions,
  type FindResult,
  type GlobalPosition,
  type IndexSpec,
  type Json,
  type ReadStore,
  type SortSpec,
  type StoredDoc,
  type WriteOp,
  deepFreeze,
  isSqliteFile,
  CommitWatch,
  DataVersion,
  type WalCheckpointer,
  startWalCheckpointer,
  preparePrivateFile,
} from '@app/kernel';

export interface SqliteReadStoreOptions {
  /** Database file (`:memory:` for a throwaway store). */
  file: string;
  /** How long a statement waits for another process's write lock; 5000 ms by default. */
  busyTimeoutMs?: number;
  /** Checkpoint the write-ahead log from a worker thread instead of inside commits (see `startWalCheckpointer`). */
  backgroundCheckpoints?: boolean;
}

type Scalar = string | number | boolean | null;
type SqlValue = string | number | null;

const COLLECTION = /^[a-z][a-z0-9_]*$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const CHECKPOINTS = '_checkpoints';
/** Prepared statements kept at most; a store only ever builds a bounded set of query shapes. */
const MAX_CACHED_STATEMENTS = 2000;
const MAX_CACHED_COUNTS = 1000;
/** Page listings (ids and positions of a page of a `find`) kept at most; all are dropped when full. */
const MAX_CACHED_PAGES = 1000;
/** Parsed documents kept at most (about 1 KB each in memory for a typical read model). */
const MAX_CACHED_DOCS = 50_000;

/**
 * The SQL expression of a (dotted) document field. `id` is the primary-key column; every other field is read
 * with `json_extract`, written exactly as the expression indexes are so that SQLite can use them. Field names
 * are validated, never interpolated raw.
 */
function valueOf(field: string): string {
  if (field === 'id') return 'id';
  if (!FIELD.test(field)) throw new Error(`invalid field name ${JSON.stringify(field)}`);
  return `json_extract(doc, '$.${field}')`;
}

/** `json_type` tells a missing field (SQL NULL) from a JSON null ('null'), which `json_extract` does not. */
function typeOf(field: string): string {
  if (field === 'id') return "'text'";
  if (!FIELD.test(field)) throw new Error(`invalid field name ${JSON.stringify(field)}`);
  return `json_type(doc, '$.${field}')`;
}

/** SQLite has no boolean type: `json_extract` turns JSON true/false into 1/0, so parameters do the same. */
const bind = (value: Scalar): SqlValue => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

function tableOf(collection: string): string {
  if (typeof collection !== 'string' || !COLLECTION.test(collection)) {
    throw new Error(`invalid collection name ${JSON.stringify(collection)}`);
  }
  return `"c_${collection}"`;
}

/** Compiles a filter into a SQL condition, appending its parameters in order. */
function compileFilter(filter: Filter | undefined, params: SqlValue[]): string {
  if (!filter) return '1';
  const parts: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (field === '$or') {
      const alternatives = condition as Filter[];
      parts.push(
        alternatives.length === 0 ? '0' : `(${alternatives.map((f) => `(${compileFilter(f, params)})`).join(' OR ')})`,
      );
      continue;
    }
    parts.push(compileCondition(field, condition as FieldCondition, params));
  }
  return parts.length === 0 ? '1' : parts.join(' AND ');
}

/** Equality; null matches a missing field as well as a JSON null. */
function equals(field: string, value: Scalar, params: SqlValue[]): string {
  if (value === null) return `${valueOf(field)} IS NULL`;
  // A boolean compares as 1/0, which the field's expression index answers without reading the documents. It would
  // also match the numbers 1 and 0: read models keep one type per field (see the port).
  params.push(bind(value));
  return `${valueOf(field)} = ?`;
}

const COMPARISONS: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

function compileCondition(field: string, condition: FieldCondition, params: SqlValue[]): string {
  if (condition === null || typeof condition !== 'object') return equals(field, condition, params);
  const parts: string[] = [];
  const expr = valueOf(field);
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    switch (operator) {
      case '$in': {
        const values = operand as Scalar[];
        parts.push(values.length === 0 ? '0' : `(${values.map((v) => equals(field, v, params)).join(' OR ')})`);
        break;
      }
      case '$ne':
        // A document whose field is missing (or null) is not equal to any value.
        parts.push(
          operand === null
            ? `${expr} IS NOT NULL`
            : `(${expr} IS NULL OR NOT (${equals(field, operand as Scalar, params)}))`,
        );
        break;
      case '$exists':
        parts.push(`${typeOf(field)} IS ${operand ? 'NOT ' : ''}NULL`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        params.push(bind(operand as Scalar));
        parts.push(`${expr} ${COMPARISONS[operator]} ?`);
        break;
      case '$contains':
        // instr() has no wildcards, so % and _ in the text are plain characters. lower() folds ASCII letters.
        params.push(String(operand));
        parts.push(`instr(lower(${expr}), lower(?)) > 0`);
        break;
      case '$has':
        params.push(bind(operand as Scalar));
        parts.push(
          `(${typeOf(field)} = 'array' AND EXISTS (SELECT 1 FROM json_each(doc, '$.${field}') WHERE value = ?))`,
        );
        break;
      default:
        throw new Error(`unknown filter operator ${operator}`);
    }
  }
  return parts.length === 0 ? '1' : parts.join(' AND ');
}

/**
 * Keyset condition: the documents strictly after the cursor in the order `sort, id ASC`, where nulls (and missing
 * fields) are the smallest values, as SQLite's ORDER BY has them: first ascending, last descending. For sort
 * fields f1..fn it is `(f1 after) OR (f1 = AND f2 after) OR … OR (f1 = AND … AND fn = AND id > cursor.id)`.
 */
function compileAfter(sort: SortSpec, cursor: FindCursor, params: SqlValue[]): string {
  if (!Array.isArray(cursor.values) || cursor.values.length !== sort.length) {
    throw new Error('the cursor does not match the sort order');
  }
  const alternatives: string[] = [];
  const equalSoFar: string[] = [];
  const equalParams: SqlValue[] = [];
  sort.forEach(([field, direction], index) => {
    const value = cursor.values[index];
    const expr = valueOf(field);
    let after: string | null;
    let afterParams: SqlValue[] = [];
    if (direction === 1) {
      // ascending: after null come all non-null values
      after = value === null ? `${expr} IS NOT NULL` : `${expr} > ?`;
      if (value !== null) afterParams = [bind(value)];
    } else {
      // descending: smaller values, then the nulls; after a null only other nulls follow (ties, decided later)
      after = value === null ? null : `(${expr} < ? OR ${expr} IS NULL)`;
      if (value !== null) afterParams = [bind(value)];
    }
    if (after !== null) {
      alternatives.push([...equalSoFar, after].join(' AND '));
      params.push(...equalParams, ...afterParams);
    }
    if (value === null) {
      equalSoFar.push(`${expr} IS NULL`);
    } else {
      equalSoFar.push(`${expr} = ?`);
      equalParams.push(bind(value));
    }
  });
  alternatives.push([...equalSoFar, 'id > ?'].join(' AND '));
  params.push(...equalParams, String(cursor.id));
  return `(${alternatives.map((alternative) => `(${alternative})`).join(' OR ')})`;
}

/** The value of a (dotted) field of a document, as a cursor keeps it (missing → null). */
function fieldValue(doc: Doc, field: string): Scalar {
  let current: unknown = doc;
  for (const key of field.split('.')) {
    if (current === null || typeof current !== 'object') return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? null : (current as Scalar);
}

/**
 * Commits made by any SQLite read store of this process (a second connection to the same file may answer a write
 * within the very turn of the event loop in which this one already checked `data_version`).
 */
let commitsInProcess = 0;

/** A cached document (frozen) and the position it reflects, or null for a document known to be absent. */
type Cached = { doc: Doc; position: string } | null;
/** A row of a page listing: a document's id and position. */
type PageRow = readonly [id: string, position: string];

/**
 * A page of a `find`, kept until a write: its rows (ids and positions), and once they were all read, its
 * documents (which cannot have changed while the page is kept, since any write drops it).
 */
interface KeptPage {
  readonly rows: readonly PageRow[];
  docs?: readonly Doc[];
}

/** The parameters of a statement as part of a cache key (types kept apart: 1 and '1' differ). */
/** Whether the documents are those of the rows, in their order. */
function sameIds(docs: readonly Doc[], rows: readonly PageRow[]): boolean {
  for (let index = 0; index < docs.length; index++) if (docs[index].id !== rows[index][0]) return false;
  return true;
}

function paramsKey(params: readonly SqlValue[]): string {
  return params.map((p) => `${typeof p}:${String(p)}`).join('\u0001');
}

/**
 * The statements of one collection that run on every request, prepared once, and the documents of the collection
 * this connection has cached by id (looked up by the id alone: a joined key would be built and hashed afresh on
 * every lookup, which a site reading 500 spaces paid 500 times per request).
 */
interface CollectionStatements {
  table: string;
  getStored: Database.Statement<[string], { doc: string; position: string }>;
  docs: Map<string, Cached>;
}

interface CheckpointRow {
  name: string;
  position: string;
  state: string | null;
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  const position: GlobalPosition = BigInt(row.position);
  return row.state === null
    ? { name: row.name, position }
    : { name: row.name, position, state: JSON.parse(row.state) as Json };
}

/**
 * The embedded read store: one SQLite table per collection (`c_<name>`: id, JSON document, position as a decimal
 * string since positions may exceed 64 bits), expression indexes on the fields projections declare, checkpoints
 * in their own table, every write batch in one IMMEDIATE transaction.
 */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly checkpointer?: WalCheckpointer;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly collections = new Map<string, CollectionStatements>();
  /**
   * What this connection has already read, kept until the database changes: parsed documents by table and id
   * (frozen, since every reader shares them), and counts by table and filter (a count walks every matching
   * index entry, which on a large list costs more than reading its page). A write of this connection drops what
   * it changes; `PRAGMA data_version` tells when another connection (another process) has committed, and then
   * everything is dropped. So a cached answer is never older than the last commit, whoever made it.
   * Counts, page listings (the ids and positions of a page of a `find`, by query, and its documents) and what
   * `getMany` found for a frozen list of ids are dropped together, on any write of documents.
   */
  private cachedDocs = 0;
  private readonly counts = new Map<string, number>();
  private readonly pages = new Map<string, KeptPage>();
  /**
   * The documents last found for a frozen list of ids (the ids of a cached document, such as a site's spaces),
   * valid while {@link queries} has not moved: a list read again before anything changed costs no lookups.
   */
  private readonly many = new WeakMap<readonly string[], { collection: string; queries: number; docs: Doc[] }>();
  /** Moves whenever the kept counts and pages are dropped (any write of documents, another connection's commit). */
  private queries = 0;
  private knownDataVersion = -1;
  /**
   * Set once `PRAGMA data_version` was read, until the current turn of the event loop ends (its ticks and
   * microtasks included): see {@link syncWithDatabase}.
   */
  private versionChecked = false;
  /** {@link commitsInProcess} when `data_version` was last read. */
  private commitsSeen = -1;
  private readonly forgetVersionCheck = () => {
    this.versionChecked = false;
  };
  private readonly forgetVersionCheckAfterMicrotasks = () => process.nextTick(this.forgetVersionCheck);
  /** `PRAGMA data_version`, read only when the WAL-index header has moved ({@link CommitWatch}). */
  private readonly dataVersion: DataVersion;
  /** One transaction function, made once (making one per write costs more than a small write). */
  private readonly applyWrites: Database.Transaction<
    (ops: readonly WriteOp[], tables: readonly string[], checkpoints: readonly Checkpoint[]) => void
  >;

  constructor(options: SqliteReadStoreOptions) {
    if (isSqliteFile(options.file)) preparePrivateFile(options.file);
    this.db = new Database(options.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    if (options.backgroundCheckpoints && isSqliteFile(options.file)) {
      this.checkpointer = startWalCheckpointer({
        file: options.file,
        connection: this.db,
        driver: require.resolve('better-sqlite3'),
      });
    }
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS "${CHECKPOINTS}" (name TEXT PRIMARY KEY, position TEXT NOT NULL, state TEXT)`,
    );
    const dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    // the watch after the first statements, once the -shm file exists
    this.dataVersion = new DataVersion(
      () => dataVersion.get() as number,
      isSqliteFile(options.file) ? CommitWatch.walIndexOf(options.file) : undefined,
    );
    this.applyWrites = this.db.transaction((ops, tables, checkpoints) => {
      ops.forEach((op, index) => {
        if (op.kind === 'put') {
          this.statement(
            `INSERT INTO ${tables[index]} (id, doc, position) VALUES (?, ?, ?) ` +
              'ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, position = excluded.position',
          ).run(op.doc.id, JSON.stringify(op.doc), op.position.toString());
        } else {
          this.statement(`DELETE FROM ${tables[index]} WHERE id = ?`).run(op.id);
        }
      });
      for (const checkpoint of checkpoints) {
        this.statement(
          `INSERT INTO "${CHECKPOINTS}" (name, position, state) VALUES (?, ?, ?) ` +
            'ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state',
        ).run(
          checkpoint.name,
          checkpoint.position.toString(),
          checkpoint.state === undefined ? null : JSON.stringify(checkpoint.state),
        );
      }
    });
  }

  async ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    const { table } = this.collection(collection);
    for (const index of indexes) {
      if (index.fields.length === 0) continue;
      const columns = index.fields.map(([field, direction]) => `${valueOf(field)}${direction === -1 ? ' DESC' : ''}`);
      // A plain index ends with id, the tie-breaker of every sort, so that a sorted page needs no sorting step.
      if (!index.unique) columns.push('id');
      const key = index.fields.map(
        ([field, direction]) => `${field.replace(/\./g, '$')}_${direction === 1 ? 'a' : 'd'}`,
      );
      const name = `"ix_${collection}__${key.join('__')}${index.unique ? '__u' : ''}"`;
      this.db.exec(
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${table} (${columns.join(', ')})`,
      );
    }
  }

  /** Documents are frozen: they are shared with every other reader of the same document. */
  async get<D extends Doc = Doc>(collection: string, id: string): Promise<D | null> {
    const cached = this.cachedOrRead(this.collection(collection), id);
    return cached === null ? null : (cached.doc as D);
  }

  async getStored<D extends Doc = Doc>(collection: string, id: string): Promise<StoredDoc<D> | null> {
    const cached = this.cachedOrRead(this.collection(collection), id);
    return cached === null ? null : { doc: cached.doc as D, position: BigInt(cached.position) };
  }

  async getMany<D extends Doc = Doc>(collection: string, ids: readonly string[]): Promise<D[]> {
    if (ids.length === 0) return [];
    const statements = this.collection(collection);
    const { table, docs } = statements;
    this.syncWithDatabase();
    const frozen = Object.isFrozen(ids);
    if (frozen) {
      const kept = this.many.get(ids);
      if (kept && kept.collection === collection && kept.queries === this.queries) return kept.docs.slice() as D[];
    }
    // the common case: every document (or its absence) is cached
    const all: D[] = [];
    let complete = true;
    for (const id of ids) {
      const cached = docs.get(id);
      if (cached === undefined) {
        complete = false;
        break;
      }
      if (cached !== null) all.push(cached.doc as D);
    }
    if (complete) {
      if (frozen) this.many.set(ids, { collection, queries: this.queries, docs: all.slice() });
      return all;
    }
    const found = new Map<string, D>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const cached = docs.get(id);
      if (cached === undefined) missing.push(id);
      else if (cached !== null) found.set(id, cached.doc as D);
    }
    for (const row of this.readRows(table, missing)) {
      found.set(row.id, this.remember(statements, row.id, row.doc, row.position) as D);
    }
    // known absences are kept too, as `get` keeps them: a space without activity costs no query the next time
    for (const id of missing) if (!found.has(id)) this.keep(statements, id, null);
    return ids.flatMap((id) => {
      const doc = found.get(id);
      return doc === undefined ? [] : [doc];
    });
  }

  async getStoredMany<D extends Doc = Doc>(
    collection: string,
    ids: readonly string[],
  ): Promise<Map<string, StoredDoc<D>>> {
    const statements = this.collection(collection);
    this.syncWithDatabase();
    const found = new Map<string, StoredDoc<D>>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const cached = statements.docs.get(id);
      if (cached === undefined) missing.push(id);
      else if (cached !== null) found.set(id, { doc: cached.doc as D, position: BigInt(cached.position) });
    }
    if (missing.length <= 2) {
      // one or two (a write's batch): a lookup by id each costs less than a statement for a list of ids
      for (const id of missing) {
        const entry = this.cachedOrRead(statements, id);
        if (entry !== null) found.set(id, { doc: entry.doc as D, position: BigInt(entry.position) });
      }
      return found;
    }
    for (const row of this.readRows(statements.table, missing)) {
      const doc = this.remember(statements, row.id, row.doc, row.position) as D;
      found.set(row.id, { doc, position: BigInt(row.position) });
    }
    for (const id of missing) if (!found.has(id)) this.keep(statements, id, null);
    return found;
  }

  /** The rows of these ids, read in chunks of a fixed size (which keeps the number of distinct statements small). */
  private readRows(table: string, ids: readonly string[]): { id: string; doc: string; position: string }[] {
    const rows: { id: string; doc: string; position: string }[] = [];
    const size = ids.length <= 16 ? 16 : 256;
    for (let start = 0; start < ids.length; start += size) {
      const chunk = ids.slice(start, start + size);
      const padded = [...chunk, ...Array<null>(size - chunk.length).fill(null)];
      const read = this.statement(
        `SELECT id, doc, position FROM ${table} WHERE id IN (${padded.map(() => '?').join(', ')})`,
      ).all(...padded) as { id: string; doc: string; position: string }[];
      for (const row of read) rows.push(row);
    }
    return rows;
  }

  async find<D extends Doc = Doc>(collection: string, options: FindOptions): Promise<FindResult<D>> {
    const statements = this.collection(collection);
    const { table } = statements;
    const sort = options.sort ?? [];
    const filterParams: SqlValue[] = [];
    const where = compileFilter(options.filter, filterParams);
    const total = this.countWhere(table, where, filterParams);
    const limit = Math.floor(options.limit);
    if (!(limit > 0)) return { items: [], total };

    const params = [...filterParams];
    const conditions = [where];
    if (options.after) conditions.push(compileAfter(sort, options.after, params));
    const order = [
      ...sort.map(([field, direction]) => `${valueOf(field)} ${direction === -1 ? 'DESC' : 'ASC'}`),
      'id ASC',
    ];
    params.push(limit + 1); // one more than asked tells whether another page follows
    const from = `FROM ${table} WHERE ${conditions.join(' AND ')} ORDER BY ${order.join(', ')} LIMIT ?`;
    // The ids and positions first: when every document is cached at its row's position (a page read again before
    // anything on it changed), no document's text is read at all (making 100 strings of the documents' JSON was
    // most of the query). Otherwise the page is read again with the documents, in one statement, so that the
    // rows and the documents are of one snapshot.
    // The listing itself is kept until a write (see `pages`; `countWhere` above has checked `data_version`): a
    // page read again costs no query at all.
    const pageKey = `${from}\u0000${paramsKey(params)}`;
    let kept = this.pages.get(pageKey);
    if (kept === undefined) {
      const rows = this.statement(`SELECT id, position ${from}`)
        .raw()
        .all(...params) as PageRow[];
      if (this.pages.size >= MAX_CACHED_PAGES) this.pages.clear();
      this.pages.set(pageKey, (kept = { rows }));
    }
    const listed = kept.rows;
    let more = listed.length > limit;
    // A page read again before anything changed: its documents are the ones read the first time.
    let items = kept.docs?.slice() as D[] | undefined;
    if (items === undefined) {
      items = [];
      for (let index = 0; index < listed.length && index < limit; index++) {
        const cached = statements.docs.get(listed[index][0]);
        if (!cached || cached.position !== listed[index][1]) {
          items = undefined;
          break;
        }
        items.push(cached.doc as D);
      }
    }
    if (items === undefined) {
      const rows = this.statement(`SELECT id, position, doc ${from}`)
        .raw()
        .all(...params) as [id: string, position: string, doc: string][];
      // A cached document at the row's position is the row's document: only the others are parsed.
      items = rows.slice(0, limit).map(([id, position, doc]) => {
        const cached = statements.docs.get(id);
        return (
          cached && cached.position === position ? cached.doc : this.remember(statements, id, doc, position)
        ) as D;
      });
      more = rows.length > limit;
    }
    // Both reads above are of one snapshot only when nothing was committed in between: the documents are kept
    // with the rows only when they are the rows' documents.
    if (kept.docs === undefined && items.length === Math.min(limit, listed.length) && sameIds(items, listed)) {
      kept.docs = items.slice();
    }
    if (!more) return { items, total };
    const last = items[items.length - 1];
    return { items, total, next: { values: sort.map(([field]) => fieldValue(last, field)), id: last.id } };
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    const { table } = this.collection(collection);
    const params: SqlValue[] = [];
    const where = compileFilter(filter, params);
    return this.countWhere(table, where, params);
  }

  /**
   * Drops what this connection has cached when another connection has committed since it last looked.
   *
   * `PRAGMA data_version` is read once per turn of the event loop (in WAL mode each read is a read transaction,
   * with its locks on the shared-memory index: a tenth of a cached GET here), and then only when the WAL-index
   * header has moved since the last look ({@link CommitWatch}). The flag it sets is cleared by a
   * tick queued from a microtask, so it holds through the microtasks already queued (a request's reads follow
   * each other in them) and is gone before Node takes the next event (the next socket read, timer or I/O
   * completion): Node runs every queued tick and microtask first. So whatever is answered in this turn serves requests that arrived before the
   * check was made, and a commit another process made before such a request arrived is seen: exact, and one
   * check per request instead of one per read (a GET of a space read six documents). A commit of another
   * connection of this process (a second store on the same file) is seen at once: it counts in
   * {@link commitsInProcess}, which makes the next read check again. (Code that waits synchronously for another
   * process, as `spawnSync` does, and reads again in the same turn is not covered; the service never does.)
   */
  private syncWithDatabase(): void {
    if (this.versionChecked && this.commitsSeen === commitsInProcess) return;
    this.commitsSeen = commitsInProcess;
    this.versionChecked = true;
    queueMicrotask(this.forgetVersionCheckAfterMicrotasks);
    const version = this.dataVersion.get();
    if (version !== this.knownDataVersion) {
      this.dropCachedDocs();
      this.dropCachedQueries();
      this.knownDataVersion = version;
    }
  }

  private dropCachedDocs(): void {
    for (const statements of this.collections.values()) statements.docs.clear();
    this.cachedDocs = 0;
  }

  private cachedOrRead(statements: CollectionStatements, id: string): Cached {
    this.syncWithDatabase();
    const cached = statements.docs.get(id);
    if (cached !== undefined) return cached;
    const row = statements.getStored.get(id);
    if (row === undefined) {
      this.keep(statements, id, null);
      return null;
    }
    const doc = deepFreeze(JSON.parse(row.doc) as Doc);
    const entry = { doc, position: row.position };
    this.keep(statements, id, entry);
    return entry;
  }

  /** Parses and caches a row read by this connection; returns the (frozen) document. */
  private remember(statements: CollectionStatements, id: string, text: string, position: string): Doc {
    const doc = deepFreeze(JSON.parse(text) as Doc);
    this.keep(statements, id, { doc, position });
    return doc;
  }

  private keep(statements: CollectionStatements, id: string, entry: Cached): void {
    if (this.cachedDocs >= MAX_CACHED_DOCS) this.dropCachedDocs();
    const before = statements.docs.size;
    statements.docs.set(id, entry);
    this.cachedDocs += statements.docs.size - before;
  }

  private forget(statements: CollectionStatements, id: string): void {
    if (statements.docs.delete(id)) this.cachedDocs--;
  }

  private dropCachedQueries(): void {
    this.counts.clear();
    this.pages.clear();
    this.queries++;
  }

  private countWhere(table: string, where: string, params: readonly SqlValue[]): number {
    this.syncWithDatabase();
    if (this.counts.size >= MAX_CACHED_COUNTS) this.counts.clear();
    const key = `${table}\u0000${where}\u0000${paramsKey(params)}`;
    let total = this.counts.get(key);
    if (total === undefined) {
      total = this.statement(`SELECT COUNT(*) FROM ${table} WHERE ${where}`)
        .pluck()
        .get(...params) as number;
      this.counts.set(key, total);
    }
    return total;
  }

  async write(ops: readonly WriteOp[], checkpoints: readonly Checkpoint[] = []): Promise<void> {
    if (ops.length === 0 && checkpoints.length === 0) return;
    // Resolve every table first: a bad collection name fails before anything is written.
    const collections = ops.map((op) => this.collection(op.collection));
    const tables = collections.map((statements) => statements.table);
    if (ops.length > 0) this.dropCachedQueries();
    ops.forEach((op, index) => this.forget(collections[index], op.kind === 'put' ? op.doc.id : op.id));
    try {
      this.applyWrites.immediate(ops, tables, checkpoints);
      if (ops.length > 0) commitsInProcess++;
    } catch (error) {
      // Rethrown as a plain Error: better-sqlite3's SqliteError class belongs to the native addon's realm.
      const message = (error as { message?: unknown })?.message;
      throw new Error(`read-store write refused: ${typeof message === 'string' ? message : String(error)}`, {
        cause: error,
      });
    }
  }

  async getCheckpoint(name: string): Promise<Checkpoint | null> {
    const row = this.statement(`SELECT name, position, state FROM "${CHECKPOINTS}" WHERE name = ?`).get(name) as
      CheckpointRow | undefined;
    return row ? toCheckpoint(row) : null;
  }

  async listCheckpoints(): Promise<Checkpoint[]> {
    const rows = this.statement(
      `SELECT name, position, state FROM "${CHECKPOINTS}" ORDER BY name`,
    ).all() as CheckpointRow[];
    return rows.map(toCheckpoint);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    this.statement(`DELETE FROM "${CHECKPOINTS}" WHERE name = ?`).run(name);
  }

  /** Deletes the documents; the table and its indexes stay. */
  async replaceCollection(target: string, source: string): Promise<void> {
    const into = this.collection(target).table;
    const from = this.collection(source).table;
    if (into === from) throw new Error(`a collection cannot replace itself (${target})`);
    this.dropCachedQueries();
    this.dropCachedDocs();
    // A copy inside one transaction (the tables keep their names and indexes); it blocks for as long as the copy
    // takes (0.7 s for 100,000 space documents with two indexes on the AMD bench host).
    this.db
      .transaction(() => {
        this.statement(`DELETE FROM ${into}`).run();
        this.statement(`INSERT INTO ${into} (id, doc, position) SELECT id, doc, position FROM ${from}`).run();
        this.statement(`DELETE FROM ${from}`).run();
      })
      .immediate();
    commitsInProcess++;
  }

  async dropCollection(collection: string): Promise<void> {
    this.dropCachedQueries();
    this.dropCachedDocs();
    this.statement(`DELETE FROM ${this.collection(collection).table}`).run();
    commitsInProcess++;
  }

  /**
   * {@link queries}, after the check for other connections' commits: it moves on every write of documents by this
   * connection and whenever another connection has committed.
   */
  generation(): number {
    this.syncWithDatabase();
    return this.queries;
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    this.dropCachedDocs();
    this.statements.clear();
    this.collections.clear();
    if (this.db.open) this.db.close();
    // only now: closing its descriptor would drop the locks of connections of this process still open on the file
    this.dataVersion.release();
  }

  /** A collection's table and hot statements, the table created on first use (an unknown collection is empty). */
  private collection(collection: string): CollectionStatements {
    let statements = this.collections.get(collection);
    if (statements === undefined) {
      const table = tableOf(collection);
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL, position TEXT NOT NULL)`,
      );
      statements = {
        table,
        docs: new Map(),
        getStored: this.db.prepare<[string], { doc: string; position: string }>(
          `SELECT doc, position FROM ${table} WHERE id = ?`,
        ),
      };
      this.collections.set(collection, statements);
    }
    return statements;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
