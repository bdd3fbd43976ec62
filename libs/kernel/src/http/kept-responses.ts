import { hash } from 'node:crypto';
import { type KeyStore } from '../ports/key-store.port';
import { type ReadStore } from '../ports/read-store.port';

/** Set on a reply by a route whose answer to this request may be kept (see {@link KeptResponses}). */
const KEEPABLE = Symbol('quire:keepable-response');

/**
 * Says that the answer a route is giving (a 200 to a GET) was made from the read store's documents, the request
 * (the caller, the path, the query string) and fixed configuration alone: no clock, no key store, no event store,
 * no other header. The application may then answer the same request again with the same response for as long as
 * the read store has not changed ({@link KeptResponses}). Only a route configured to keep answers
 * ({@link KEEPS_ANSWERS}, {@link READS_KEY_STORE}) may say so of a GET: any other GET is never looked up, and
 * asking there is a mistake, refused at once rather than left to a cache that silently never serves. (Other
 * methods may call it from code they share with GETs; nothing is kept for them.)
 */
export function keepResponse(reply: object): void {
  const request = (reply as { request?: { method?: string; routeOptions?: { config?: unknown } } }).request;
  if (request?.method === 'GET' && keptAnswersOf(request.routeOptions?.config) === undefined) {
    throw new Error(
      'keepResponse() on a GET route without @RouteConfig(KEEPS_ANSWERS) or @RouteConfig(READS_KEY_STORE)',
    );
  }
  (reply as Record<symbol, unknown>)[KEEPABLE] = true;
}

/**
 * Fastify route configuration (`@RouteConfig(KEEPS_ANSWERS)`) of a GET whose answers may be kept (it calls
 * {@link keepResponse} when an answer qualifies) while the read store's generation holds. GET routes without it are
 * routed as they come, with no look-up of kept answers.
 */
export const KEEPS_ANSWERS = Object.freeze({ keptResponse: 'reads' });

/**
 * Route configuration (`@RouteConfig(READS_KEY_STORE)`) of a GET whose answers may be kept and, when kept, also
 * depend on the key store (people's names and addresses, opened with their own keys): they are kept while the key
 * store's `version()` holds too, so an erased person is never shown from a kept answer.
 */
export const READS_KEY_STORE = Object.freeze({ keptResponse: 'reads-key-store' });

/** What a route's configuration says of its answers: not kept, kept by the read store, or by both stores. */
export function keptAnswersOf(config: unknown): 'reads' | 'reads-key-store' | undefined {
  const kind = (config as { keptResponse?: unknown } | undefined)?.keptResponse;
  return kind === KEEPS_ANSWERS.keptResponse || kind === READS_KEY_STORE.keptResponse ? kind : undefined;
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
 * the caller's token being revoked, another process's commit) moves the generation; a route that shows people
 * ({@link READS_KEY_STORE}) is also tagged with the key store's `version()`. Requests are keyed by a hash of their
 * `Authorization` header and target, so neither a token nor a share key is kept in plain text. An adapter without
 * a generation or a version (MongoDB) keeps nothing.
 */
export class KeptResponses {
  private readonly kept = new Map<string, { tag: string; response: KeptResponse }>();
  private bytes = 0;

  constructor(
    private readonly stores: { reads: Pick<ReadStore, 'generation'>; keys?: Pick<KeyStore, 'version'> },
    private readonly limits: KeptResponsesLimits = DEFAULT_LIMITS,
  ) {}

  /** The key of a request: who asks (its `Authorization` header, as sent) and what (its path and query string). */
  static keyOf(authorization: string | undefined, url: string): string {
    return hash('sha256', `${authorization ?? ''}\n${url}`, 'base64');
  }

  /**
   * What the stores a response depends on are at now: the read store's generation, with the key store's version
   * when `withKeys`; undefined when a store cannot tell. Read before a response is made, and given back to `keep`.
   */
  tag(withKeys = false): string | undefined {
    const reads = this.stores.reads.generation();
    if (reads === undefined) return undefined;
    if (!withKeys) return String(reads);
    const keys = this.stores.keys?.version();
    return keys === undefined ? undefined : `${reads}:${keys}`;
  }

  /** Whether a response is kept for `key`, made at whatever tag: only then can `find` answer for it. */
  holds(key: string): boolean {
    return this.kept.has(key);
  }

  /** The response kept for `key` when it was made at `tag` (what the stores are at now); otherwise none. */
  find(key: string, tag: string): KeptResponse | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    if (kept.tag === tag) return kept.response;
    this.drop(key);
    return undefined;
  }

  /** Keeps a response made while the stores were at `tag` (the oldest ones go when the limits are reached). */
  keep(key: string, tag: string, response: KeptResponse): void {
    const size = response.payload.length;
    if (size > this.limits.bytes) return;
    this.drop(key);
    while (this.kept.size > 0 && (this.kept.size >= this.limits.entries || this.bytes + size > this.limits.bytes)) {
      this.drop(this.kept.keys().next().value as string);
    }
    this.kept.set(key, { tag, response });
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
