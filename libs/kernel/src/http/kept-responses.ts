import { hash } from 'node:crypto';
import { type ReadStore } from '../ports/read-store.port';

/** Set on a reply by a route whose answer to this request may be kept (see {@link KeptResponses}). */
const KEEPABLE = Symbol('quire:keepable-response');

/**
 * Says that the answer a route is giving (a 200 to a GET) was made from the read store's documents, the request
 * (the caller, the path, the query string) and fixed configuration alone: no clock, no key store, no event store,
 * no other header. The application may then answer the same request again with the same response for as long as
 * the read store has not changed ({@link KeptResponses}).
 */
export function keepResponse(reply: object): void {
  (reply as Record<symbol, unknown>)[KEEPABLE] = true;
}

/** Whether the route said its answer may be kept ({@link keepResponse}). */
export function isKeepable(reply: object): boolean {
  return (reply as Record<symbol, unknown>)[KEEPABLE] === true;
}

/** A response as kept: the headers its route set (beyond the ones every response gets) and its body's bytes. */
export interface KeptResponse {
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: Buffer;
}

export interface KeptResponsesLimits {
  /** Responses kept at most. */
  entries: number;
  /** Bytes of bodies kept at most, all together; a larger body is never kept. */
  bytes: number;
}

const DEFAULT_LIMITS: KeptResponsesLimits = { entries: 1_024, bytes: 16 * 1024 * 1024 };

/**
 * Whole responses to GET requests, kept by request while the read store's `generation()` holds: the request is
 * then answered before the framework routes it (no guard, no pipes, no query), with the very bytes and headers it
 * got the first time. Exact for the routes that ask for it ({@link keepResponse}): their answer depends on nothing
 * but the request and the read store's documents, and anything that could change it (a document, a membership,
 * the caller's token being revoked, another process's commit) moves the generation. Requests are keyed by a hash
 * of their `Authorization` header and target, so neither a token nor a share key is kept in plain text. An
 * adapter without a generation (MongoDB) keeps nothing.
 */
export class KeptResponses {
  private readonly kept = new Map<string, { generation: number; response: KeptResponse }>();
  private bytes = 0;

  constructor(
    private readonly store: Pick<ReadStore, 'generation'>,
    private readonly limits: KeptResponsesLimits = DEFAULT_LIMITS,
  ) {}

  /** The key of a request: who asks (its `Authorization` header, as sent) and what (its path and query string). */
  static keyOf(authorization: string | undefined, url: string): string {
    return hash('sha256', `${authorization ?? ''}\n${url}`, 'base64');
  }

  /** The read store's generation now (read before a response is made, and given back to `keep`). */
  generation(): number | undefined {
    return this.store.generation();
  }

  /** The response kept for `key` when it was made at `generation` (now the store's); otherwise none. */
  find(key: string, generation: number): KeptResponse | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    if (kept.generation === generation) return kept.response;
    this.drop(key);
    return undefined;
  }

  /** Keeps a response made while the store was at `generation` (the oldest ones go when the limits are reached). */
  keep(key: string, generation: number, response: KeptResponse): void {
    const size = response.payload.length;
    if (size > this.limits.bytes) return;
    this.drop(key);
    while (this.kept.size > 0 && (this.kept.size >= this.limits.entries || this.bytes + size > this.limits.bytes)) {
      this.drop(this.kept.keys().next().value as string);
    }
    this.kept.set(key, { generation, response });
    this.bytes += size;
  }

  /** How many responses and body bytes are kept. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.kept.size, bytes: this.bytes };
  }

  private drop(key: string): void {
    const kept = this.kept.get(key);
    if (kept === undefined) return;
    this.kept.delete(key);
    this.bytes -= kept.response.payload.length;
  }
}
