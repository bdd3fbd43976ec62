import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore, GridFsBlobStore, createBlobStore } from '@app/blob-store';
import { type BlobStore } from '@app/kernel';
import { loadConfig } from '../../apps/api/src/config';

interface Adapter {
  open(): Promise<BlobStore>;
  close(store: BlobStore): Promise<void>;
}

/**
 * The BlobStore contract: every adapter passes it. Files always run; the GridFS bucket runs when MONGODB_URL is
 * set (for example mongodb://localhost:27017/quire_test), and says why it skips otherwise.
 */
function contract(name: string, adapter: Adapter): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    beforeEach(async () => {
      store = await adapter.open();
    });
    afterEach(async () => {
      await adapter.close(store);
    });

    it('answers ping when it can be written to', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('stores bytes under their SHA-256 and gives them back', async () => {
      const bytes = Buffer.from('some bytes\u0000with a nul');
      const stored = await store.put(bytes);
      expect(stored).toEqual({ key: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
      expect(await store.get(stored.key)).toEqual(bytes);
      expect(await store.has(stored.key)).toBe(true);
    });

    it('stores the same bytes once, and an empty blob too', async () => {
      const first = await store.put(Buffer.from('same'));
      const second = await store.put(Buffer.from('same'));
      expect(second).toEqual(first);
      const empty = await store.put(Buffer.alloc(0));
      expect(await store.get(empty.key)).toEqual(Buffer.alloc(0));
    });

    it('gives back a blob larger than one chunk as it was stored, also when stored twice at once', async () => {
      const bytes = randomBytes(700 * 1024);
      const [one, two] = await Promise.all([store.put(bytes), store.put(bytes)]);
      expect(two).toEqual(one);
      expect((await store.get(one.key))!.equals(bytes)).toBe(true);
    });

    it('answers null for unknown keys and for anything that is not a key (no path tricks)', async () => {
      expect(await store.get('0'.repeat(64))).toBeNull();
      expect(await store.has('0'.repeat(64))).toBe(false);
      for (const bad of ['../../etc/passwd', 'ab/../cd', 'A'.repeat(64), '', '{"$ne": null}']) {
        expect(await store.get(bad)).toBeNull();
        expect(await store.has(bad)).toBe(false);
      }
    });
  });
}

contract('files under DATA_DIR', {
  open: async () => new FilesystemBlobStore(mkdtempSync(join(tmpdir(), 'quire-blobs-'))),
  close: async () => undefined,
});

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  const bucket = `blobs_test_${randomBytes(4).toString('hex')}`;
  contract('GridFS bucket in MongoDB', {
    async open() {
      const store = new GridFsBlobStore({ url: mongoUrl, bucket });
      await store.ping();
      return store;
    },
    async close(store) {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(mongoUrl);
      try {
        await client.db().collection(`${bucket}.files`).deleteMany({});
        await client.db().collection(`${bucket}.chunks`).deleteMany({});
      } finally {
        await client.close();
        await (store as GridFsBlobStore).close();
      }
    },
  });
} else {
  describe.skip('GridFS blob store (skipped: MONGODB_URL is not set; no MongoDB server can run here)', () => {
    it('passes the same contract when MONGODB_URL points at a server', () => undefined);
  });
}

describe('choosing the adapter', () => {
  it('opens files unless BLOB_STORE says mongodb, and refuses a MongoDB server it cannot reach at start-up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-blobs-'));
    try {
      expect(await createBlobStore({ driver: 'files', directory: dir })).toBeInstanceOf(FilesystemBlobStore);
      const base = { DATA_DIR: dir, CURSOR_SECRET: 'x'.repeat(32) };
      const url = 'mongodb://db:27017/q';
      expect(loadConfig(base).blobStore).toEqual({ driver: 'files', directory: join(dir, 'blobs') });
      expect(loadConfig({ ...base, BLOB_STORE: 'mongodb', MONGODB_URL: url }).blobStore).toEqual({
        driver: 'mongodb',
        url,
      });
      // the read models in MongoDB do not move the blobs: that is asked for by name
      expect(loadConfig({ ...base, READ_STORE: 'mongodb', MONGODB_URL: url }).blobStore.driver).toBe('files');
      expect(() => loadConfig({ ...base, BLOB_STORE: 'mongodb' })).toThrow(/MONGODB_URL/);
      expect(() => loadConfig({ ...base, BLOB_STORE: 's3' })).toThrow(/BLOB_STORE/);
      // nothing listens on port 9 of loopback: the ping fails and says which store it was
      await expect(
        createBlobStore({ driver: 'mongodb', url: 'mongodb://127.0.0.1:9/quire', serverSelectionTimeoutMs: 300 }),
      ).rejects.toThrow(/cannot reach the MongoDB blob store/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('files adapter', () => {
  it('answers ping for a folder not made yet (making it), and fails where no folder can be', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-blobs-'));
    try {
      const fresh = join(dir, 'not', 'yet');
      await new FilesystemBlobStore(fresh).ping();
      expect(statSync(fresh).isDirectory()).toBe(true);
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      writeFileSync(join(dir, 'a-file'), 'not a folder');
      await expect(new FilesystemBlobStore(join(dir, 'a-file', 'blobs')).ping()).rejects.toThrow();
      await expect(new FilesystemBlobStore(join(dir, 'a-file')).ping()).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps blobs readable by the service user only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-blobs-'));
    try {
      const { key } = await new FilesystemBlobStore(dir).put(Buffer.from('private'));
      const sub = join(dir, key.slice(0, 2));
      expect(statSync(sub).mode & 0o777).toBe(0o700);
      expect(statSync(join(sub, key)).mode & 0o777).toBe(0o600);
      expect(readdirSync(sub)).toEqual([key]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
