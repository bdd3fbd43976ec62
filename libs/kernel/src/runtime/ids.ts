import { createHash, randomBytes } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random identifier of 20 base62 characters (about 119 bits), URL-safe, like the platform's own ids. */
export function newId(): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 62];
  return out;
}

/**
 * A new event id: a time-ordered UUID (version 7, RFC 9562), so that ids made one after another sort one after
 * another. The SQLite event store keeps a unique index of event ids; a random id lands on a random page of that
 * index, which on a store of 1,000,000 events cost single-event appends a fifth of their rate against ids that
 * land at its end (bench/NOTES.md). EventStoreDB takes any UUID.
 */
export function newEventId(): string {
  return timeOrderedUuid();
}

/**
 * A deterministic UUID-shaped id derived from a key: a retried command with the same id produces the same
 * event ids, so its append is a no-op.
 */
export function deterministicEventId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
