/**
 * The key-store port: one random secret key per data subject (a user, or an email address invited before it has
 * a user), kept outside the event store. Personal data is recorded in events encrypted with its subject's key;
 * destroying the key erases that data everywhere it was copied (crypto-shredding), without rewriting history.
 * Both adapters (SQLite, MongoDB) pass the contract suite in test/contract/key-store.contract-spec.ts.
 *
 * Subjects are opaque strings chosen by the context that seals data (identity uses `user:<userId>` and
 * `address:<email key>`).
 */
export const KEY_STORE = Symbol('KEY_STORE');

/** Length of every key, in bytes (AES-256). */
export const KEY_BYTES = 32;

export interface KeyStore {
  /**
   * The subject's key, created (KEY_BYTES random bytes) when it has none. Concurrent calls for one subject, from
   * this process or another, all get the same key. After `destroy`, a new call makes a new, different key.
   */
  keyFor(subject: string): Promise<Buffer>;
  /** The subject's key, or undefined when it never had one or it was destroyed. */
  get(subject: string): Promise<Buffer | undefined>;
  /** The keys of those subjects that have one. */
  getMany(subjects: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * Destroys the subject's key for good: once this resolves, no reader (in any process) gets it again, and the
   * embedded adapter's files no longer hold its bytes. Destroying a key that does not exist does nothing.
   */
  destroy(subject: string): Promise<void>;
  /**
   * Names the keys as they are now, for those who keep what they opened with them: while it gives the same value,
   * no key was created or destroyed (by this process or another); after any such change it gives another. An
   * adapter that cannot tell cheaply gives undefined, and then nothing opened may be kept.
   */
  version(): string | undefined;
  /** Resolves when the store can be reached (used by /health). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
