import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore } from '@app/blob-store';
import { type BlobStore } from '@app/kernel';

/**
 * The BlobStore contract. Only the files adapter exists: the production shape (a GridFS bucket or an S3-compatible
 * store) would run the same suite.
 */
describe.each([['files under DATA_DIR', () => new FilesystemBlobStore(mkdtempSync(join(tmpdir(), 'quire-blobs-')))]])(
  'BlobStore contract: %s',
  (_name, make) => {
    let store: BlobStore;
    beforeEach(() => {
      store = make();
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

    it('answers null for unknown keys and for anything that is not a key (no path tricks)', async () => {
      expect(await store.get('0'.repeat(64))).toBeNull();
      expect(await store.has('0'.repeat(64))).toBe(false);
      for (const bad of ['../../etc/passwd', 'ab/../cd', 'A'.repeat(64), '']) {
        expect(await store.get(bad)).toBeNull();
        expect(await store.has(bad)).toBe(false);
      }
    });
  },
);

describe('files adapter', () => {
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
