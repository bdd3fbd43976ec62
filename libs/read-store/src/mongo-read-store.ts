// Only types come from the driver at load time: it is loaded when a MongoReadStore is made, so that importing this
// library for the embedded SQLite store never pays for it (~65 ms).
import type { AnyBulkWriteOperation, Collection, Db, Document, MongoClient } from 'mongodb';
import {
  type Checkpoint,
  type Doc,
  type FieldCondition,
  type Filter,
  type FindCursor,
  type FindOptions,
  type FindResult,
  type IndexSpec,
  type Json,
  type ReadStore,
  type SortSpec,
  type StoredDoc,
  type WriteOp,
  databaseNameOf,
} from '@app/kernel';

export interface MongoReadStoreOptions {
  /** `mongodb://…/<database>`; the database defaults to `quire` when the URL names none. */
  url: string;
  /** How long an operation waits for a usable server; 5000 ms by default. */
  serverSelectionTimeoutMs?: number;
}

/** How a document is stored: the read model's document under `d`, the position it reflects under `p`. */
interface Stored extends Document {
  _id: string;
  d: Doc;
  /** The global position as a decimal string: positions may exceed 64 bits. */
  p: string;
}

interface StoredCheckpoint extends Document {
  _id: string;
  position: string;
  state?: Json;
}

interface Connection {
  client: MongoClient;
  db: Db;
}

type Scalar = string | number | boolean | null;

const COLLECTION = /^[a-z][a-z0-9_]*$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const CHECKPOINTS = '_checkpoints';

/** The stored path of a (dotted) document field: `id` is `_id`, every other field lives under `d`. */
function pathOf(field: string): string {
  if (field === 'id') return '_id';
  if (!FIELD.test(field)) throw new Error(`invalid field name ${JSON.stringify(field)}`);
  return `d.${field}`;
}

function collectionName(collection: string): string {
  if (typeof collection !== 'string' || !COLLECTION.test(collection)) {
    throw new Error(`invalid collection name ${JSON.stringify(collection)}`);
  }
  return `rm_${collection}`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches no document (MongoDB refuses an empty `$or`). */
const NOTHING: Document = { _id: { $exists: false } };

const all = (parts: Document[]): Document =>
  parts.length === 0 ? {} : parts.length === 1 ? parts[0] : { $and: parts };

function compileFilter(filter: Filter | undefined): Document {
  if (!filter) return {};
  const parts: Document[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (field === '$or') {
      const alternatives = condition as Filter[];
      parts.push(alternatives.length === 0 ? NOTHING : { $or: alternatives.map(compileFilter) });
      continue;
    }
    parts.push(compileCondition(field, condition as FieldCondition));
  }
  return all(parts);
}

/**
 * MongoDB's own semantics already match the port's: `{f: null}` matches a missing field, `$ne` matches documents
 * without the field, `$exists` tells a missing field from a null one, comparisons never match null or missing.
 */
function compileCondition(field: string, condition: FieldCondition): Document {
  const path = pathOf(field);
  if (condition === null || typeof condition !== 'object') return { [path]: condition };
  const parts: Document[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    switch (operator) {
      case '$in':
        parts.push((operand as Scalar[]).length === 0 ? NOTHING : { [path]: { $in: operand } });
        break;
      case '$ne':
      case '$exists':
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        parts.push({ [path]: { [operator]: operand } });
        break;
      case '$contains':
        parts.push({ [path]: { $regex: escapeRegex(String(operand)), $options: 'i' } });
        break;
      case '$has':
        // only arrays: equality on a scalar field would match too
        parts.push({ [path]: { $elemMatch: { $eq: operand } } });
        break;
      default:
        throw new Error(`unknown filter operator ${operator}`);
    }
  }
  return all(parts);
}

/**
 * Documents strictly after the cursor in the order `sort, _id ASC`. MongoDB sorts null and missing fields first
 * ascending and last descending, like SQLite: nulls are the smallest values.
 */
function compileAfter(sort: SortSpec, cursor: FindCursor): Document {
  if (!Array.isArray(cursor.values) || cursor.values.length !== sort.length) {
    throw new Error('the cursor does not match the sort order');
  }
  const alternatives: Document[] = [];
  const equalSoFar: Document[] = [];
  sort.forEach(([field, direction], index) => {
    const path = pathOf(field);
    const value = cursor.values[index];
    let after: Document | null;
    if (direction === 1) after = value === null ? { [path]: { $ne: null } } : { [path]: { $gt: value } };
    else after = value === null ? null : { $or: [{ [path]: { $lt: value } }, { [path]: null }] };
    if (after) alternatives.push(all([...equalSoFar, after]));
    equalSoFar.push({ [path]: value });
  });
  alternatives.push(all([...equalSoFar, { _id: { $gt: String(cursor.id) } }]));
  return alternatives.length === 1 ? alternatives[0] : { $or: alternatives };
}

function fieldValue(doc: Doc, field: string): Scalar {
  let current: unknown = doc;
  for (const key of field.split('.')) {
    if (current === null || typeof current !== 'object') return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? null : (current as Scalar);
}

function toCheckpoint(stored: StoredCheckpoint): Checkpoint {
  const checkpoint: Checkpoint = { name: stored._id, position: BigInt(stored.position) };
  if (stored.state !== undefined) checkpoint.state = stored.state;
  return checkpoint;
}

/**
 * The production read store on MongoDB: one collection per read model (`rm_<name>`), each document stored as
 * `{_id, d: document, p: position}` so that a projection's fields never clash with MongoDB's own, with indexes on
 * `d.<field>`; checkpoints in `_checkpoints`.
 *
 * A write batch is one transaction on a replica set or sharded cluster. A standalone server has no transactions:
 * there the documents are written first (ordered) and the checkpoints last. A failure in between leaves some
 * documents written and the checkpoint behind, which is safe: every document keeps the position it reflects, so the
 * runner skips the events it already applied when the batch is delivered again.
 */
export class MongoReadStore implements ReadStore {
  private readonly connection: Promise<Connection>;
  private connected?: Connection;
  private readonly handles = new Map<string, Collection<Stored>>();
  private transactions?: Promise<boolean>;

  constructor(options: MongoReadStoreOptions) {
    const database = databaseNameOf(options.url);
    this.connection = import('mongodb').then(({ MongoClient }) => {
      const client = new MongoClient(options.url, {
        serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000,
        // a property set to undefined is left out, as JSON.stringify (and so the SQLite store) does
        ignoreUndefined: true,
      });
      this.connected = { client, db: client.db(database) };
      return this.connected;
    });
    // A failure to load the driver is reported by the first operation, not as an unhandled rejection.
    this.connection.catch(() => undefined);
  }

  async ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    const target = await this.collection(collection);
    for (const index of indexes) {
      if (index.fields.length === 0) continue;
      const keys: Record<string, 1 | -1> = {};
      for (const [field, direction] of index.fields) keys[pathOf(field)] = direction;
      if (Object.keys(keys).length === 1 && '_id' in keys) continue; // the _id index exists already
      // A unique index covers only the documents that have its fields, as SQLite's unique index ignores rows
      // where a field is missing (SQLite also lets JSON nulls repeat; here two explicit nulls still collide).
      await target.createIndex(
        keys,
        index.unique
          ? {
              unique: true,
              partialFilterExpression: all(Object.keys(keys).map((path) => ({ [path]: { $exists: true } }))),
            }
          : {},
      );
    }
  }

  async get<D extends Doc = Doc>(collection: string, id: string): Promise<D | null> {
    const found = await (await this.collection(collection)).findOne({ _id: id }, { projection: { d: 1 } });
    return found ? (found.d as D) : null;
  }

  async getStored<D extends Doc = Doc>(collection: string, id: string): Promise<StoredDoc<D> | null> {
    const found = await (await this.collection(collection)).findOne({ _id: id });
    return found ? { doc: found.d as D, position: BigInt(found.p) } : null;
  }

  async getStoredMany<D extends Doc = Doc>(
    collection: string,
    ids: readonly string[],
  ): Promise<Map<string, StoredDoc<D>>> {
    const found = new Map<string, StoredDoc<D>>();
    if (ids.length === 0) return found;
    const rows = await (
      await this.collection(collection)
    )
      .find({ _id: { $in: [...new Set(ids)] } }, { projection: { d: 1, p: 1 } })
      .toArray();
    for (const row of rows) found.set(row._id, { doc: row.d as D, position: BigInt(row.p) });
    return found;
  }

  async getMany<D extends Doc = Doc>(collection: string, ids: readonly string[]): Promise<D[]> {
    if (ids.length === 0) return [];
    const rows = await (
      await this.collection(collection)
    )
      .find({ _id: { $in: [...new Set(ids)] } }, { projection: { d: 1 } })
      .toArray();
    const found = new Map<string, D>();
    for (const row of rows) found.set(row._id, row.d as D);
    return ids.flatMap((id) => {
      const doc = found.get(id);
      return doc === undefined ? [] : [doc];
    });
  }

  async find<D extends Doc = Doc>(collection: string, options: FindOptions): Promise<FindResult<D>> {
    const target = await this.collection(collection);
    const sort = options.sort ?? [];
    const filter = compileFilter(options.filter);
    const total = await target.countDocuments(filter);
    const limit = Math.floor(options.limit);
    if (!(limit > 0)) return { items: [], total };
    const query = options.after ? all([filter, compileAfter(sort, options.after)]) : filter;
    const order: Record<string, 1 | -1> = {};
    for (const [field, direction] of sort) order[pathOf(field)] = direction === -1 ? -1 : 1;
    if (!('_id' in order)) order._id = 1;
    const rows = await target
      .find(query, { projection: { d: 1 } })
      .sort(order)
      .limit(limit + 1) // one more than asked tells whether another page follows
      .toArray();
    const items = rows.slice(0, limit).map((row) => row.d as D);
    if (rows.length <= limit) return { items, total };
    const last = items[items.length - 1];
    return { items, total, next: { values: sort.map(([field]) => fieldValue(last, field)), id: last.id } };
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    return (await this.collection(collection)).countDocuments(compileFilter(filter));
  }

  async write(ops: readonly WriteOp[], checkpoints: readonly Checkpoint[] = []): Promise<void> {
    if (ops.length === 0 && checkpoints.length === 0) return;
    // Grouped by collection, each group in order; a bad collection name fails before anything is written. A
    // document appears at most once in a batch (the runner folds its events), so grouping keeps the outcome.
    const groups = new Map<string, AnyBulkWriteOperation<Stored>[]>();
    for (const op of ops) {
      const name = collectionName(op.collection);
      const group = groups.get(name) ?? [];
      group.push(
        op.kind === 'put'
          ? {
              replaceOne: {
                filter: { _id: op.doc.id },
                replacement: { _id: op.doc.id, d: op.doc, p: op.position.toString() },
                upsert: true,
              },
            }
          : { deleteOne: { filter: { _id: op.id } } },
      );
      groups.set(name, group);
    }
    const checkpointOps: AnyBulkWriteOperation<StoredCheckpoint>[] = checkpoints.map((checkpoint) => ({
      replaceOne: {
        filter: { _id: checkpoint.name },
        replacement: {
          _id: checkpoint.name,
          position: checkpoint.position.toString(),
          ...(checkpoint.state === undefined ? {} : { state: checkpoint.state }),
        },
        upsert: true,
      },
    }));

    const { client, db } = await this.connection;
    const checkpointCollection = db.collection<StoredCheckpoint>(CHECKPOINTS);
    if (await this.supportsTransactions()) {
      const session = client.startSession();
      try {
        // The callback may run again on a transient error: replacing and deleting by id are idempotent.
        await session.withTransaction(async () => {
          for (const [name, group] of groups) await db.collection<Stored>(name).bulkWrite(group, { session });
          if (checkpointOps.length > 0) await checkpointCollection.bulkWrite(checkpointOps, { session });
        });
      } finally {
        await session.endSession();
      }
      return;
    }
    for (const [name, group] of groups) await db.collection<Stored>(name).bulkWrite(group, { ordered: true });
    if (checkpointOps.length > 0) await checkpointCollection.bulkWrite(checkpointOps, { ordered: true });
  }

  async getCheckpoint(name: string): Promise<Checkpoint | null> {
    const found = await (await this.checkpoints()).findOne({ _id: name });
    return found ? toCheckpoint(found) : null;
  }

  async listCheckpoints(): Promise<Checkpoint[]> {
    return (await (await this.checkpoints()).find().sort({ _id: 1 }).toArray()).map(toCheckpoint);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await (await this.checkpoints()).deleteOne({ _id: name });
  }

  /** Deletes the documents; the collection and its indexes stay. */
  async replaceCollection(target: string, source: string): Promise<void> {
    if (collectionName(target) === collectionName(source)) {
      throw new Error(`a collection cannot replace itself (${target})`);
    }
    const { db } = this.connected ?? (await this.connection);
    const exists = await db.listCollections({ name: collectionName(source) }, { nameOnly: true }).hasNext();
    if (!exists) {
      // nothing was ever written aside: the result is an empty collection
      await (await this.collection(target)).deleteMany({});
      return;
    }
    // renameCollection with dropTarget is one atomic step on the server; indexes travel with the collection.
    // (Collection handles go by name, so the ones held for both names stay valid.)
    await (await this.collection(source)).rename(collectionName(target), { dropTarget: true });
  }

  async dropCollection(collection: string): Promise<void> {
    await (await this.collection(collection)).deleteMany({});
  }

  /** Nothing here tells cheaply that another replica has written: nothing is kept by generation. */
  generation(): number | undefined {
    return undefined;
  }

  async ping(): Promise<void> {
    await (await this.connection).db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    const connection = await this.connection.catch(() => undefined);
    await connection?.client.close();
  }

  /**
   * Whether write batches are atomic here: transactions need a replica set or a sharded cluster. Asked once.
   * Not part of the port: the contract suite uses it to know what to expect of a failed batch.
   */
  supportsTransactions(): Promise<boolean> {
    this.transactions ??= this.connection
      .then(({ db }) => db.admin().command({ hello: 1 }))
      .then((hello) => typeof hello.setName === 'string' || hello.msg === 'isdbgrid');
    // Not kept when the server could not be asked: the next write asks again.
    this.transactions.catch(() => (this.transactions = undefined));
    return this.transactions;
  }

  private async collection(collection: string): Promise<Collection<Stored>> {
    let handle = this.handles.get(collection);
    if (handle === undefined) {
      const name = collectionName(collection);
      const { db } = this.connected ?? (await this.connection);
      handle = db.collection<Stored>(name);
      this.handles.set(collection, handle);
    }
    return handle;
  }

  private async checkpoints(): Promise<Collection<StoredCheckpoint>> {
    return (this.connected ?? (await this.connection)).db.collection<StoredCheckpoint>(CHECKPOINTS);
  }
}
