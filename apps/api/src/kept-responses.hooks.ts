import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { KeptResponses, type KeyStore, type ReadStore, isKeepable, keptAnswersOf } from '@app/kernel';
import { type ConnectionGuard } from './connection-guard';

/**
 * The headers a route set on its answer: those it added or changed since `before` (what the request hooks had set:
 * security headers, request id, rate-limit counters, which a kept answer must not carry to another request).
 */
function routeHeaders(reply: FastifyReply, before: Readonly<Record<string, unknown>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (name === 'content-length' || value === undefined || before[name] === value) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** A request with a kept response under its key, waiting for the stores to be looked at. */
interface Waiting {
  request: FastifyRequest;
  reply: FastifyReply;
  done: () => void;
  key: string;
  withKeys: boolean;
}

/**
 * A GET whose route said its answer may be kept (`keepResponse`) is answered again from the kept response while the
 * stores it depends on have not changed (kernel `KeptResponses`), before routing into Nest. It runs as the last
 * request hook of each GET route configured to keep answers (`KEEPS_ANSWERS`, `READS_KEY_STORE`; other routes pay
 * nothing for it), so that everything before it still applies: the security headers, the connection
 * guard and the rate limiter, whose hook is the route's own, added when the route is registered, as this one is:
 * so this must be installed after the rate limiter, and before the routes are registered (`app.init()`).
 *
 * Whether the stores have changed is one look (a `pread` of each SQLite file's WAL-index header, which costs a
 * system call), taken once for all the requests with a kept response that were read in one turn of the event loop:
 * they wait for the loop's check phase (`setImmediate`), where one look serves them all. That look is taken after
 * every one of them was read from its socket, so after each arrived: a commit that answered its writer before a
 * request was sent is seen, as when each request looked for itself. Under load the loop reads many requests per
 * turn, and the look was a seventh of a kept answer's CPU. A request without a kept response looks at once and is
 * routed; one whose kept response no longer holds is routed from the check phase, with the tag of that look.
 */
export function installKeptResponses(
  fastify: FastifyInstance,
  reads: ReadStore,
  keys: KeyStore,
  connections: ConnectionGuard,
): void {
  const responses = new KeptResponses({ reads, keys });
  const noted = new WeakMap<FastifyRequest, { key: string; tag: string; before: Readonly<Record<string, unknown>> }>();
  let waiting: Waiting[] = [];

  const answerWaiting = (): void => {
    const batch = waiting;
    waiting = [];
    // one look per kind of tag, after every request of the batch was read
    const tags = new Map<boolean, string | undefined>();
    const tagOf = (withKeys: boolean): string | undefined => {
      if (!tags.has(withKeys)) {
        let tag: string | undefined;
        try {
          tag = responses.tag(withKeys);
        } catch {
          tag = undefined; // routed: the route meets the store's failure and answers it
        }
        tags.set(withKeys, tag);
      }
      return tags.get(withKeys);
    };
    const toRoute: Waiting[] = [];
    for (const entry of batch) {
      const tag = tagOf(entry.withKeys);
      const found = tag === undefined ? undefined : responses.find(entry.key, tag);
      if (found === undefined) {
        if (tag !== undefined) noted.set(entry.request, { key: entry.key, tag, before: entry.reply.getHeaders() });
        toRoute.push(entry);
      } else if (!entry.request.raw.socket.destroyed) {
        void entry.reply.headers(found.headers).send(found.payload);
      }
    }
    // after every kept answer is sent: a routed request runs its handler from here, and the tags were taken before
    for (const entry of toRoute) entry.done();
  };

  const answerKept =
    (withKeys: boolean) =>
    (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      if (request.method !== 'GET') return done();
      const key = KeptResponses.keyOf(request.headers.authorization, request.url);
      if (responses.holds(key)) {
        connections.handling(request.raw.socket);
        if (waiting.length === 0) setImmediate(answerWaiting);
        waiting.push({ request, reply, done, key, withKeys });
        return;
      }
      const tag = responses.tag(withKeys);
      if (tag === undefined) return done();
      noted.set(request, { key, tag, before: reply.getHeaders() });
      done();
    };
  const [answerKeptOfReads, answerKeptOfReadsAndKeys] = [answerKept(false), answerKept(true)];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    const kind = keptAnswersOf(route.config);
    if (kind === undefined) return;
    const hook = kind === 'reads-key-store' ? answerKeptOfReadsAndKeys : answerKeptOfReads;
    const hooks = route.onRequest;
    route.onRequest = [...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]), hook as never];
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const note = noted.get(request);
    if (note !== undefined && reply.statusCode === 200 && isKeepable(reply)) {
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
        responses.keep(note.key, note.tag, {
          headers: routeHeaders(reply, note.before),
          payload: Buffer.from(payload),
        });
      }
    }
    done(null, payload);
  });
}
