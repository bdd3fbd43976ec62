import { lookup as lookupAll } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import {
  FetchRefused,
  type FetchedDocument,
  type Fetcher,
  type OutboundRequest,
  type OutboundResponse,
} from '@app/kernel';

/** One answer of a DNS lookup, shaped like those of `dns.lookup` with `all: true`. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has; tests pass their own to simulate DNS answers. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetcherOptions {
  /** Budget for the whole fetch: DNS, every redirect and the body. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /**
   * `host:port` entries (the host as the URL writes it, IPv6 in brackets; port 80/443 implied when the URL names
   * none) whose address is not checked, so a deployment can import from a documentation server on its own network.
   */
  allowlist?: string[];
  lookup?: HostLookup;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// Identity encoding: a small compressed answer could otherwise expand far past the size cap once decoded.
const REQUEST_HEADERS = {
  'user-agent': 'Quire-Importer/1.0',
  accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1',
  'accept-encoding': 'identity',
};

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a unique-local (private) address',
  reserved: 'a reserved address',
};

const defaultLookup: HostLookup = (hostname) => lookupAll(hostname, { all: true });

/** Receivers whose connections are kept at most; the least recently used one's are closed beyond that. */
const MAX_KEPT_RECEIVERS = 64;
/** How long an idle kept connection waits for the next delivery: under the 5 s most servers keep one open. */
const KEPT_CONNECTION_IDLE_MS = 4000;

/**
 * Connections kept open between webhook deliveries, one pool (a keep-alive agent) per receiver and set of checked
 * addresses: a delivery is vetted (DNS, the address guard) like any other, and a kept connection is used only for
 * the very addresses that vetting answered again, so one made before the host's DNS changed, or before an address
 * became refused, is never used for it.
 */
class KeptConnections {
  private readonly agents = new Map<string, HttpAgent>();

  agentFor(url: URL, targets: readonly ResolvedAddress[]): HttpAgent {
    const key = `${url.protocol}//${url.host} ${targets.map((target) => target.address).join(' ')}`;
    let agent = this.agents.get(key);
    if (agent !== undefined) {
      this.agents.delete(key); // moved to the end: the most recently used
    } else {
      const options = { keepAlive: true, maxSockets: 8, maxFreeSockets: 2, timeout: KEPT_CONNECTION_IDLE_MS };
      agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
      if (this.agents.size >= MAX_KEPT_RECEIVERS) {
        const [oldest, oldestAgent] = this.agents.entries().next().value as [string, HttpAgent];
        this.agents.delete(oldest);
        oldestAgent.destroy();
      }
    }
    this.agents.set(key, agent);
    return agent;
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/** A kept connection that the receiver had closed when a delivery was written to it: nothing was answered. */
class StaleConnection extends Error {}

/**
 * Fetches documents from addresses users type in, without letting them reach the service's own network (SSRF).
 * Each hop is resolved once, every address in the answer must be public, and the connection goes to the address
 * that was checked: a DNS answer that changes between the check and the connect (rebinding) cannot redirect it.
 * Redirects are followed by hand so each new address is checked from scratch. Nothing is logged: the caller
 * decides what to tell the user from the `FetchRefused` it gets.
 */
export class SafeFetcher implements Fetcher {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly allowlist: ReadonlySet<string>;
  private readonly lookup: HostLookup;
  private readonly kept = new KeptConnections();

  constructor(options: SafeFetcherOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.allowlist = new Set((options.allowlist ?? []).map((entry) => entry.trim().toLowerCase()));
    this.lookup = options.lookup ?? defaultLookup;
  }

  async fetch(url: string): Promise<FetchedDocument> {
    const start = parseTarget(url);
    return this.withDeadline(start, (signal) => this.follow(start, signal));
  }

  /**
   * One request, answered with its status whatever it is (redirects included: they are not followed). The
   * connection is kept for the next request to the same receiver when its answer was read to the end (see
   * {@link KeptConnections}); a kept connection the receiver closed meanwhile is found out when the request is
   * written to it, and the request is then sent once more on a new one (a receiver may get a delivery twice, as
   * with any retry: webhook deliveries are at least once).
   */
  async send(url: string, request: OutboundRequest): Promise<OutboundResponse> {
    const target = parseTarget(url);
    return this.withDeadline(target, async (signal) => {
      const targets = await this.vet(target);
      const outgoing = {
        method: request.method,
        headers: { 'user-agent': 'Quire-Webhooks/1.0', 'accept-encoding': 'identity', ...request.headers },
        body: request.body,
      };
      let response: IncomingMessage;
      try {
        response = await send(target, targets, signal, outgoing, this.kept.agentFor(target, targets));
      } catch (error) {
        if (!(error instanceof StaleConnection)) throw error;
        response = await send(target, targets, signal, outgoing, this.kept.agentFor(target, targets));
      }
      return { status: response.statusCode ?? 0, body: await readPrefix(response, request.maxResponseBytes) };
    });
  }

  /** Closes the connections kept between requests (they never keep the process alive on their own). */
  close(): void {
    this.kept.close();
  }

  private async withDeadline<T>(target: URL, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // A DNS lookup cannot be cancelled, so the deadline races the whole fetch instead of relying on the sockets.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new FetchRefused('timeout', `${target.host} did not answer within ${this.timeoutMs} ms`));
        controller.abort();
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([work(controller.signal), deadline]);
    } catch (error) {
      controller.abort(); // closes any socket a refusal left open
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async follow(start: URL, signal: AbortSignal): Promise<FetchedDocument> {
    let url = start;
    let via: URL | undefined; // the server whose redirect brought us here, named in refusals
    for (let redirects = 0; ; redirects += 1) {
      const targets = await this.vet(url).catch((error: unknown) => Promise.reject(blame(via, error)));
      const response = await send(url, targets, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        discard(response);
        if (redirects >= this.maxRedirects) {
          throw new FetchRefused('redirects', `${start.href} redirected more than ${this.maxRedirects} times`);
        }
        const location = response.headers.location;
        if (!location) throw new FetchRefused('status', `${url.href} answered ${status} without a new address`);
        via = url;
        try {
          url = parseTarget(location, url);
        } catch (error) {
          throw blame(via, error);
        }
        continue;
      }
      if (status < 200 || status > 299) {
        discard(response);
        throw new FetchRefused('status', `${url.href} answered ${status}`);
      }
      const body = await this.readBody(response, url);
      return { url: url.href, status, ...parseContentType(response.headers['content-type']), body };
    }
  }

  /** The addresses to connect to for this URL, refused unless every address the host has is public. */
  private async vet(url: URL): Promise<ResolvedAddress[]> {
    const host = bareHost(url);
    const literal = isIP(host);
    const answers = literal ? [{ address: host, family: literal }] : await this.resolve(host);
    if (!this.allowlist.has(`${url.hostname.toLowerCase()}:${portOf(url)}`)) {
      for (const { address } of answers) {
        const problem = nonPublic(address);
        if (problem) throw new FetchRefused('address', literal ? problem : `${host} is not public: ${problem}`);
      }
    }
    return answers;
  }

  private async resolve(host: string): Promise<ResolvedAddress[]> {
    let answers: ResolvedAddress[];
    try {
      answers = await this.lookup(host);
    } catch (error) {
      throw new FetchRefused('network', `Could not find ${host} (${errorCode(error)})`);
    }
    if (answers.length === 0) throw new FetchRefused('network', `Could not find ${host} (no addresses)`);
    return answers;
  }

  private readBody(response: IncomingMessage, url: URL): Promise<Buffer> {
    const tooLarge = () =>
      new FetchRefused('too-large', `The document at ${url.href} is larger than ${formatBytes(this.maxBytes)}`);
    if (Number(response.headers['content-length']) > this.maxBytes) {
      discard(response);
      return Promise.reject(tooLarge());
    }
    // A chunked answer declares no length at all, so the bytes are counted as they arrive.
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > this.maxBytes) {
          response.destroy();
          reject(tooLarge());
        } else {
          chunks.push(chunk);
        }
      });
      response.once('end', () => resolve(Buffer.concat(chunks, received)));
      response.once('error', (error) => reject(networkRefusal(url, error)));
      response.once('close', () =>
        reject(new FetchRefused('network', `${url.host} closed the connection before the document was complete`)),
      );
    });
  }
}

/** Allowlist entries from a comma-separated setting such as `FETCH_ALLOWLIST=wiki.internal:8080,10.0.0.7:80`. */
export function parseAllowlist(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry.length > 0);
}

function parseTarget(input: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    const shown = input.length > 100 ? `${input.slice(0, 100)}…` : input;
    throw new FetchRefused('url', `"${shown}" is not a valid web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefused('scheme', `Only http and https addresses can be fetched, not ${url.protocol}`);
  }
  // Credentials in a URL would be sent to whatever server it names, and a redirect could forward them.
  if (url.username || url.password) {
    throw new FetchRefused('url', 'Addresses with a user name or password are not accepted');
  }
  return url;
}

/** A refusal met after a redirect says which server sent us there, since the user never typed that address. */
function blame(via: URL | undefined, error: unknown): unknown {
  if (!via || !(error instanceof FetchRefused)) return error;
  return new FetchRefused(error.reason, `${via.host} redirected elsewhere: ${error.message}`);
}

interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function send(
  url: URL,
  targets: ResolvedAddress[],
  signal: AbortSignal,
  outgoing: OutgoingRequest = { method: 'GET', headers: REQUEST_HEADERS },
  kept?: HttpAgent,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const host = bareHost(url);
    const options: RequestOptions = {
      method: outgoing.method,
      headers: outgoing.headers,
      // Without a kept connection's agent, no pooled sockets: each connection is made to the address just checked.
      agent: kept ?? false,
      lookup: pinnedLookup(targets),
      signal,
    };
    // Host header and TLS server name stay the host from the URL, so virtual hosts and certificates still work.
    const request =
      url.protocol === 'https:'
        ? httpsRequest(url, { ...options, servername: isIP(host) ? undefined : host })
        : httpRequest(url, options);
    let answered = false;
    request.once('response', (response) => {
      answered = true;
      resolve(response);
    });
    // Stays attached after the response: a socket error while reading the body must not crash the process.
    request.on('error', (error) => {
      const stale = !answered && request.reusedSocket && isClosedByPeer(error);
      reject(stale ? new StaleConnection() : networkRefusal(url, error));
    });
    request.end(outgoing.body);
  });
}

/** A connection the other end closed or reset: what writing to a kept connection closed meanwhile meets. */
function isClosedByPeer(error: unknown): boolean {
  const { code } = error as NodeJS.ErrnoException;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * The first `max` bytes of an answer's body. An answer shorter than that, read to its end, leaves its connection to
 * be kept (when it came through a keep-alive agent); once `max` bytes have arrived the rest is not read and the
 * connection is closed.
 */
function readPrefix(response: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (close: boolean) => {
      if (settled) return;
      settled = true;
      if (close) discard(response);
      resolve(Buffer.concat(chunks).subarray(0, max));
    };
    if (max <= 0) return finish(true);
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      received += chunk.length;
      if (received >= max) finish(true);
    });
    response.once('end', () => finish(false));
    // an answer cut short still has a status: what arrived of its body is kept
    response.once('error', () => finish(true));
    response.once('close', () => finish(true));
  });
}

/**
 * Answers Node's connect-time lookup with the addresses already checked, never asking DNS again. Node asks for all
 * of them when it tries IPv6 and IPv4 side by side (autoSelectFamily), otherwise for one.
 */
function pinnedLookup(targets: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    process.nextTick(() => {
      if (options.all) callback(null, targets);
      else callback(null, targets[0].address, targets[0].family);
    });
  };
}

/** Closes an answer whose body is not wanted; errors from tearing it down mean nothing any more. */
function discard(response: IncomingMessage): void {
  response.on('error', () => undefined);
  response.destroy();
}

/** Why an address is not public unicast, in words, or undefined when it is. */
function nonPublic(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an address that can be checked`;
  }
  let shown = address;
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d, so it is judged as that host.
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) {
    parsed = parsed.toIPv4Address();
    shown = `${address} (IPv4 ${parsed.toString()})`;
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (parsed.toString() === '169.254.169.254') return `${shown} is a link-local address (cloud metadata service)`;
  return `${shown} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}`;
}

function parseContentType(header: string | undefined): { contentType: string; charset?: string } {
  const [mediaType = '', ...parameters] = (header ?? '').split(';');
  const result: { contentType: string; charset?: string } = { contentType: mediaType.trim().toLowerCase() };
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset) result.charset = charset;
  }
  return result;
}

/** The URL's host without the brackets WHATWG URL keeps around IPv6 literals. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function networkRefusal(url: URL, error: unknown): FetchRefused {
  return new FetchRefused('network', `Could not reach ${url.host} (${errorCode(error)})`);
}

function errorCode(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code || message || String(error);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
