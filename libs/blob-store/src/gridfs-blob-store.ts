import { createHash } from 'node:crypto';
import { once } from 'node:events';
// Only types come from the driver at load time: it is loaded when a GridFsBlobStore is made.
import type { Db, GridFSBucket, MongoClient } from 'mongodb';
import { BLOB_KEY, type BlobStore, type StoredBlob, databaseNameOf } from '@app/kernel';

export interface GridFsBlobStoreOptions {
  /** `mongodb://…/<database>`; the database defaults to `quire` when the URL names none. */
  url: string;
  /** The GridFS bucket (its collections are `<bucket>.files` and `<bucket>.chunks`); default `blobs`. */
  bucket?: string;
  serverSelectionTimeoutMs?: number;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Blobs in a GridFS bucket of the MongoDB database, for the production shape: every replica of the service reads
 * the same blobs, and they are backed up with the database. A blob's file is named by its SHA-256. GridFS writes
 * a file's document only after all its chunks, so a file that can be found is complete; a crash mid-upload leaves
 * chunks no file names, which nothing reads. Two replicas storing the same new bytes at once may both write a
 * file of that name: they hold the same bytes, and any one of them is the blob. Uploads wait for a majority of
 * the replica set and its journal, so an acknowledged blob survives a failover; what is read back is checked
 * against its name.
 */
export class GridFsBlobStore implements BlobStore {
  private readonly connection: Promise<{ client: MongoClient; db: Db; bucket: GridFSBucket }>;

  constructor(options: GridFsBlobStoreOptions) {
    this.connection = import('mongodb').then(async ({ GridFSBucket, MongoClient }) => {
      const client = new MongoClient(options.url, {
        serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 10_000,
      });
      await client.connect();
      const db = client.db(databaseNameOf(options.url));
      const bucket = new GridFSBucket(db, {
        bucketName: options.bucket ?? 'blobs',
        writeConcern: { w: 'majority', j: true },
      });
      return { client, db, bucket };
    });
    this.connection.catch(() => undefined);
  }

  async put(bytes: Buffer): Promise<StoredBlob> {
    const key = sha256(bytes);
    if (!(await this.has(key))) {
      const { bucket } = await this.connection;
      const upload = bucket.openUploadStream(key, { metadata: { size: bytes.length } });
      const finished = once(upload, 'finish');
      upload.end(bytes);
      await finished;
    }
    return { key, size: bytes.length };
  }

  async get(key: string): Promise<Buffer | null> {
    if (!BLOB_KEY.test(key)) return null;
    const { bucket } = await this.connection;
    const [file] = await bucket.find({ filename: key }, { limit: 1 }).toArray();
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (sha256(bytes) !== key) throw new Error(`blob ${key}: the stored bytes do not match their name`);
    return bytes;
  }

  async has(key: string): Promise<boolean> {
    if (!BLOB_KEY.test(key)) return false;
    const { bucket } = await this.connection;
    return (await bucket.find({ filename: key }, { limit: 1, projection: { _id: 1 } }).toArray()).length > 0;
  }

  /** Fails when the server cannot be reached (so that a wrong URL fails at start-up, not on the first upload). */
  async ping(): Promise<void> {
    const { db } = await this.connection;
    await db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    const { client } = await this.connection.catch(() => ({ client: undefined }));
    await client?.close();
  }
}
