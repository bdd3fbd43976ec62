import { deepFreeze } from '../runtime/deep-freeze';

/**
 * Answers whose JSON is made once. A query handler that presents the same read-model document to the same kind
 * of caller again and again (GET of an organization, a space) keeps the presented body per document object and
 * variant (`KeptBodies`); the read stores hand out the same frozen document until it changes, so a changed
 * document is a new key and the old body goes with the old document. The reply serializer (`serializeReply`,
 * installed in the application) then answers a kept body from its kept UTF-8 bytes instead of serialising it on
 * every request. A kept body is frozen all the way down, so neither the handler that made it nor any later reader
 * can change it behind its kept JSON.
 */

/** Kept bodies and, once a reply has serialised them, their JSON as UTF-8. */
const keptJson = new WeakMap<object, Buffer | null>();

/** Freezes a body and marks it as kept: replies serialise it once. */
export function keepBody<B extends object>(body: B): B {
  if (!keptJson.has(body)) keptJson.set(deepFreeze(body), null);
  return body;
}

/** The JSON text of a body as UTF-8: made once for a kept body, afresh for any other. */
export function bodyJson(body: unknown): Buffer {
  if (typeof body !== 'object' || body === null) return Buffer.from(JSON.stringify(body));
  let json = keptJson.get(body);
  if (json === undefined) return Buffer.from(JSON.stringify(body));
  if (json === null) keptJson.set(body, (json = Buffer.from(JSON.stringify(body))));
  return json;
}

/**
 * A body a handler has already serialised (JSON text, or its UTF-8 bytes as `listJson` gives them): the reply
 * serializer sends it as it is, with the JSON content type Fastify gives any object.
 */
export class JsonText {
  constructor(readonly text: Buffer | string) {}
}

/**
 * The application's reply serializer (Fastify's `setReplySerializer`): a kept body is answered from its kept
 * bytes, a `JsonText` as it is; anything else is serialised as Fastify would (`JSON.stringify`).
 */
export function serializeReply(payload: unknown): string | Buffer {
  if (payload instanceof JsonText) return payload.text;
  return typeof payload === 'object' && payload !== null && keptJson.has(payload)
    ? bodyJson(payload)
    : JSON.stringify(payload);
}

/** How many variants of one document's body are kept at most (one per role a caller met it with, say). */
const MAX_VARIANTS = 8;

/**
 * Bodies presented from documents, kept per document object and variant (whatever else the body depends on: the
 * caller's role, counters). An adapter that hands out a fresh document on every read only misses.
 */
export class KeptBodies<D extends object, B extends object> {
  private readonly kept = new WeakMap<D, Map<string, B>>();

  /** The body of `doc` for `variant`: the kept one, or `present()`'s, kept from now on. */
  of(doc: D, variant: string, present: () => B): B {
    let variants = this.kept.get(doc);
    let body = variants?.get(variant);
    if (body === undefined) {
      body = keepBody(present());
      if (!variants) this.kept.set(doc, (variants = new Map()));
      if (variants.size >= MAX_VARIANTS) variants.clear();
      variants.set(variant, body);
    }
    return body;
  }
}
