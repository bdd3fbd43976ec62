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

/**
 * A GET whose route said its answer may be kept (`keepResponse`) is answered again from the kept response while the
 * stores it depends on have not changed (kernel `KeptResponses`), before routing into Nest. It runs as the last
 * request hook of each GET route configured to keep answers (`KEEPS_ANSWERS`, `READS_KEY_STORE`; other routes pay
 * nothing for it), so that everything before it still applies: the security headers, the connection
 * guard and the rate limiter, whose hook is the route's own, added when the route is registered, as this one is:
 * so this must be installed after the rate limiter, and before the routes are registered (`app.init()`).
 */
export function installKeptResponses(
  fastify: FastifyInstance,
  reads: ReadStore,
  keys: KeyStore,
  connections: ConnectionGuard,
): void {
  const responses = new KeptResponses({ reads, keys });
  const noted = new WeakMap<FastifyRequest, { key: string; tag: string; before: Readonly<Record<string, unknown>> }>();
  const answerKept =
    (withKeys: boolean) =>
    (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      if (request.method !== 'GET') return done();
      const tag = responses.tag(withKeys);
      if (tag === undefined) return done();
      const key = KeptResponses.keyOf(request.headers.authorization, request.url);
      const found = responses.find(key, tag);
      if (found === undefined) {
        noted.set(request, { key, tag, before: reply.getHeaders() });
        return done();
      }
      connections.handling(request.raw.socket);
      void reply.headers(found.headers).send(found.payload);
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
