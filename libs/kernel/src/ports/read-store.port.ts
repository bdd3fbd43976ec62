/**
 * The read-store port: JSON documents grouped in collections, written by projections and read by queries.
 * Both adapters (SQLite, MongoDB) pass the contract suite in test/contract/read-store.contract-spec.ts.
 */
import type { GlobalPosition } from './event-store.port';

export const READ_STORE = Symbol('READ_STORE');

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A stored document: `id` is unique within its collection. */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

/** A stored document with the global position of the last event it reflects. */
export interface StoredDoc<D extends Doc = Doc> {
  doc: D;
  position: GlobalPosition;
}

/**
 * Filter on top-level or dotted fields. A plain value means equality (null matches a missing field too);
 * an operator object allows `$in`, `$ne`, `$exists`, `$gt`/`$gte`/`$lt`/`$lte`, `$contains`
 * (case-insensitive substring) and `$has` (an array field holds this value). `$or` takes a list of filters. Read models keep one type per field: a boolean
 * condition is not required to tell `true`/`false` from the numbers 1/0 (the SQLite adapter does not).
 */
export type FieldCondition =
  | string
  | number
  | boolean
  | null
  | {
      $in?: (string | number | boolean)[];
      $ne?: string | number | boolean | null;
      $exists?: boolean;
      $gt?: string | number;
      $gte?: string | number;
      $lt?: string | number;
      $lte?: string | number;
      $contains?: string;
      $has?: string | number;
    };

export interface Filter {
  [field: string]: FieldCondition | Filter[] | undefined;
  $or?: Filter[];
}

export type SortSpec = readonly (readonly [field: string, direction: 1 | -1])[];

export interface FindOptions {
  filter?: Filter;
  /** Sort order; ties are always broken by `id` ascending so that cursors are stable. */
  sort?: SortSpec;
  limit: number;
  /** Resume after this cursor (from a previous `FindResult.next`). */
  after?: FindCursor;
}

/** Keyset cursor: the sort values and id of the last document returned. JSON-safe. */
export interface FindCursor {
  values: (string | number | boolean | null)[];
  id: string;
}

export interface FindResult<D extends Doc = Doc> {
  items: D[];
  /** Total number of documents matching the filter (ignoring the cursor and limit). */
  total: number;
  /** Present when more documents follow. */
  next?: FindCursor;
}

export interface IndexSpec {
  /** Fields in order, each ascending (1) or descending (-1). */
  fields: readonly (readonly [field: string, direction: 1 | -1])[];
  unique?: boolean;
}

export type WriteOp =
  | { kind: 'put'; collection: string; doc: Doc; position: GlobalPosition }
  | { kind: 'delete'; collection: string; id: string; position: GlobalPosition };

export interface Checkpoint {
  name: string;
  position: GlobalPosition;
  /** Free-form JSON the runner keeps with the checkpoint (version, parked events...). */
  state?: Json;
}

/**
 * Documents a read store returns are read-only: an adapter may hand the same object to every reader (the SQLite
 * one keeps the documents it has read until they change, and freezes them). Build new objects instead of
 * changing them.
 */
export interface ReadStore {
  ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void>;
  get<D extends Doc = Doc>(collection: string, id: string): Promise<D | null>;
  /** A document with the position it reflects, for the projection runner. */
  getStored<D extends Doc = Doc>(collection: string, id: string): Promise<StoredDoc<D> | null>;
  /** Many documents with their positions, in one read (the projection runner's batches); ids without one are absent. */
  getStoredMany<D extends Doc = Doc>(collection: string, ids: readonly string[]): Promise<Map<string, StoredDoc<D>>>;
  getMany<D extends Doc = Doc>(collection: string, ids: readonly string[]): Promise<D[]>;
  find<D extends Doc = Doc>(collection: string, options: FindOptions): Promise<FindResult<D>>;
  count(collection: string, filter?: Filter): Promise<number>;
  /** Applies the writes and then the checkpoints, in one transaction where the store allows it. */
  write(ops: readonly WriteOp[], checkpoints?: readonly Checkpoint[]): Promise<void>;
  getCheckpoint(name: string): Promise<Checkpoint | null>;
  listCheckpoints(): Promise<Checkpoint[]>;
  deleteCheckpoint(name: string): Promise<void>;
  /** Removes every document of a collection (projection rebuild). */
  dropCollection(collection: string): Promise<void>;
  /**
   * Gives `target` exactly the documents of `source` (with their positions) and leaves `source` empty, in one
   * step readers cannot see half-done: a projection rebuilt aside replaces the one in service.
   */
  replaceCollection(target: string, source: string): Promise<void>;
  /**
   * A number that moves whenever any document of the store may have changed (a write of this process, a commit of
   * another one), read as of now; undefined when the adapter cannot tell cheaply. An answer made only from the
   * store's documents, after `generation()` gave `g`, still holds while `generation()` gives `g`.
   */
  generation(): number | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
}
