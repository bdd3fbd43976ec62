import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BLOB_KEY, type BlobStore, type StoredBlob } from '@app/kernel';

/**
 * Blobs as files under one directory, named by their SHA-256 and spread over 256 sub-directories. A blob is
 * written to a temporary name and renamed into place, so a reader never sees half a file and a crash leaves at
 * most a temporary file behind. Files are readable by the service's user only.
 */
export class FilesystemBlobStore implements BlobStore {
  constructor(private readonly directory: string) {}

  async put(bytes: Buffer): Promise<StoredBlob> {
    const key = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(key);
    if (!(await this.exists(path))) {
      await mkdir(join(this.directory, key.slice(0, 2)), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, path);
    }
    return { key, size: bytes.length };
  }

  async get(key: string): Promise<Buffer | null> {
    if (!BLOB_KEY.test(key)) return null;
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    return BLOB_KEY.test(key) && this.exists(this.pathOf(key));
  }

  /** The directory exists (it is made on the first call, as a first `put` would) and this user may write in it. */
  async ping(): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await access(this.directory, constants.W_OK | constants.X_OK);
  }

  private pathOf(key: string): string {
    return join(this.directory, key.slice(0, 2), key);
  }

  private async exists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch {
      return false;
    }
  }
}
