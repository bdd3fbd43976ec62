import { randomBytes } from 'node:crypto';
// Only types come from the driver at load time: it is loaded when a MongoKeyStore is made.
import type { Binary, Collection, Db, MongoClient } from 'mongodb';
import { KEY_BYTES, type KeyStore, databaseNameOf } from '@app/kernel';
import { checkSubject } from './subject';

export interface MongoKeyStoreOptions {
  /** `mongodb://…/<database>`; the database defaults to `quire` when the URL names none. */
  url: string;
  /** The collection holding the keys (`personal_keys`). */
  collection?: string;
  serverSelectionTimeoutMs?: number;
}

interface KeyDoc {
  _id: string;
  key: Binary | Buffer;
  createdAt: Date;
}

const DUPLICATE_KEY = 11000;

const bytesOf = (key: Binary | Buffer): Buffer =>
  Buffer.isBuffer(key) ? key : Buffer.from(key.buffer.buffer, key.buffer.byteOffset, key.buffer.byteLength);

/**
 * The key store in a MongoDB collection, one document per subject (`_id` is the subject). Writes wait for a
 * majority of the replica set and its journal, so an acknowledged key survives a failover. Nothing is cached: a
 * key destroyed by another process is gone for this one at once.
 *
 * Destroying removes the document; how soon its bytes leave the server's data files, journal, oplog and backups
 * is MongoDB's affair (see docs/architecture.md, Personal data).
 */
export class MongoKeyStore implements KeyStore {
  private readonly connection: Promise<{ client: MongoClient; db: Db; keys: Collection<KeyDoc> }>;

  constructor(options: MongoKeyStoreOptions) {
    this.connection = import('mongodb').then(async ({ MongoClient }) => {
      const client = new MongoClient(options.url, {
        serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 10_000,
      });
      await client.connect();
      const db = client.db(databaseNameOf(options.url));
      const keys = db.collection<KeyDoc>(options.collection ?? 'personal_keys', {
        writeConcern: { w: 'majority', j: true },
      });
      return { client, db, keys };
    });
    this.connection.catch(() => undefined);
  }

  async keyFor(subject: string): Promise<Buffer> {
    checkSubject(subject);
    const { keys } = await this.connection;
    const existing = await keys.findOne({ _id: subject });
    if (existing) return bytesOf(existing.key);
    try {
      await keys.insertOne({ _id: subject, key: randomBytes(KEY_BYTES), createdAt: new Date() });
    } catch (error) {
      // Another writer stored the subject's key first: read theirs.
      if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
    }
    const stored = await keys.findOne({ _id: subject }, { readConcern: { level: 'majority' } });
    if (!stored) throw new Error(`the key of ${subject} could not be stored`);
    return bytesOf(stored.key);
  }

  async get(subject: string): Promise<Buffer | undefined> {
    checkSubject(subject);
    const { keys } = await this.connection;
    const found = await keys.findOne({ _id: subject });
    return found ? bytesOf(found.key) : undefined;
  }

  async getMany(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    subjects.forEach(checkSubject);
    const found = new Map<string, Buffer>();
    if (subjects.length === 0) return found;
    const { keys } = await this.connection;
    for (const doc of await keys.find({ _id: { $in: [...new Set(subjects)] } }).toArray()) {
      found.set(doc._id, bytesOf(doc.key));
    }
    return found;
  }

  async destroy(subject: string): Promise<void> {
    checkSubject(subject);
    const { keys } = await this.connection;
    await keys.deleteOne({ _id: subject });
  }

  /** Nothing tells cheaply when another process created or destroyed a key: nothing opened may be kept. */
  version(): undefined {
    return undefined;
  }

  async ping(): Promise<void> {
    const { db } = await this.connection;
    await db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    const connection = await this.connection.catch(() => undefined);
    await connection?.client.close();
  }
}
