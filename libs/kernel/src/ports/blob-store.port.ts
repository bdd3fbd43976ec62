export const BLOB_STORE = Symbol('BLOB_STORE');

/** A stored blob: its key is the SHA-256 of its bytes (hex), so the same bytes are stored once. */
export interface StoredBlob {
  key: string;
  size: number;
}

/**
 * Content-addressed storage of uploaded files and generated documents. Blobs are immutable: `put` of bytes that
 * are already there changes nothing. Embedded default: files under `DATA_DIR/blobs`; production: a GridFS bucket
 * (`BLOB_STORE=mongodb`); an S3-compatible store would fit behind the same port.
 */
export interface BlobStore {
  put(bytes: Buffer): Promise<StoredBlob>;
  /** The bytes of a blob, or null when no blob has this key. */
  get(key: string): Promise<Buffer | null>;
  has(key: string): Promise<boolean>;
  /** Resolves when the store can be written to now (for `/health`); rejects saying why not. */
  ping(): Promise<void>;
}

/** A blob key is 64 lower-case hex digits; anything else names no blob. */
export const BLOB_KEY = /^[0-9a-f]{64}$/;
