export const FETCHER = Symbol('FETCHER');

/** What a fetch brought back. Only successful (2xx) answers become documents; everything else is refused. */
export interface FetchedDocument {
  /** The address the document came from after following redirects, so relative links resolve against it. */
  url: string;
  status: number;
  /** Lower-case media type without parameters (`text/markdown`), or '' when the server named none. */
  contentType: string;
  /** The `charset` parameter of the content type, lower-case, when the server gave one. */
  charset?: string;
  body: Buffer;
}

/**
 * Downloads a document from an address a user supplied. Because the address is untrusted, an implementation must
 * keep the service from being used to reach its own network (loopback, private ranges, cloud metadata) and must
 * bound time and size; every refusal is a `FetchRefused`.
 */
export interface Fetcher {
  fetch(url: string): Promise<FetchedDocument>;
  /**
   * Sends one request (a webhook delivery) to an address a user supplied, with the same address guard and time
   * limit as `fetch`, and answers whatever status the server gives. A redirect is never followed: it is an answer
   * like any other (3xx). Only the first `maxResponseBytes` of the answer's body are read.
   */
  send(url: string, request: OutboundRequest): Promise<OutboundResponse>;
}

export interface OutboundRequest {
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string | Buffer;
  maxResponseBytes: number;
}

export interface OutboundResponse {
  status: number;
  /** The first bytes of the answer's body (at most `maxResponseBytes`). */
  body: Buffer;
}

/** The kind of rule a refused fetch broke; callers may map kinds to answers without parsing messages. */
export type FetchRefusedReason =
  'scheme' | 'address' | 'redirects' | 'too-large' | 'timeout' | 'status' | 'network' | 'url';

/** Why a fetch was refused; the message names the cause in words the user who gave the address can act on. */
export class FetchRefused extends Error {
  constructor(
    readonly reason: FetchRefusedReason,
    message: string,
  ) {
    super(message);
    this.name = 'FetchRefused';
  }
}
