import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { FetchRefused } from '@app/kernel';
import { type HostLookup, SafeFetcher, type SafeFetcherOptions, parseAllowlist } from './safe-fetcher';

/**
 * Every test talks to servers on 127.0.0.1 only. The main server is admitted through the allowlist; public and
 * private DNS answers are simulated with a fake lookup, and refused addresses are never connected to.
 */

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** The refusal a fetch ends with; fails the test when the fetch succeeds or throws something else. */
async function refusal(promise: Promise<unknown>): Promise<FetchRefused> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchRefused);
    return error as FetchRefused;
  }
  throw new Error('the fetch was not refused');
}

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A fake DNS that answers from a table and counts its questions. */
function fakeDns(table: Record<string, string[]>): HostLookup & { calls: string[]; table: Record<string, string[]> } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls, table });
}

let main: Server;
let port: number;
let base: string;
let other: Server;
let otherPort: number;
let otherHits = 0;
let closedPort: number;
const closedSockets: string[] = [];
/** Connections the main server has accepted. */
let connections = 0;
let firstOfConnectionRequests = 0;

beforeAll(async () => {
  ({ server: main, port } = await listen((request, response) => {
    const url = new URL(request.url ?? '/', 'http://test');
    const path = url.pathname;
    request.socket.once('close', () => closedSockets.push(path));
    if (path === '/doc.md') {
      response.writeHead(200, { 'content-type': 'Text/Markdown; Charset="UTF-8"' });
      response.end('# Grüße\n');
    } else if (path === '/untyped') {
      response.end('no type');
    } else if (path === '/post-echo') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(Number(url.searchParams.get('code') ?? 200), { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ method: request.method, headers: request.headers, body: Buffer.concat(chunks).toString() }),
        );
      });
    } else if (path === '/echo') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.headers));
    } else if (path.startsWith('/hop/')) {
      const left = Number(path.slice('/hop/'.length));
      if (left === 0) response.end('arrived');
      else response.writeHead(302, { location: `/hop/${left - 1}` }).end();
    } else if (path.startsWith('/slow-hop/')) {
      const left = Number(path.slice('/slow-hop/'.length));
      const timer = setTimeout(() => response.writeHead(302, { location: `/slow-hop/${left - 1}` }).end(), 120);
      response.once('close', () => clearTimeout(timer));
    } else if (path === '/redirect') {
      const status = Number(url.searchParams.get('status') ?? 302);
      const location = url.searchParams.get('to');
      response.writeHead(status, location ? { location } : {}).end();
    } else if (path === '/status') {
      response.writeHead(Number(url.searchParams.get('code'))).end('nope');
    } else if (path === '/hang') {
      // never answers
    } else if (path === '/stall-body') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('the beginning and then nothing');
    } else if (path === '/declared-huge') {
      response.writeHead(200, { 'content-length': '10000000' });
      response.write('0123456789');
    } else if (path === '/sized') {
      response.end('x'.repeat(Number(url.searchParams.get('bytes'))));
    } else if (path === '/first-of-connection') {
      // answers the first request of a connection; a later one finds the connection closed under it, as when a
      // receiver's keep-alive timeout and the next delivery cross
      firstOfConnectionRequests += 1;
      const socket = request.socket as typeof request.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) socket.destroy();
      else response.end('first');
    } else if (path === '/endless') {
      response.writeHead(200, { 'content-type': 'text/plain' }); // no length: chunked
      const timer = setInterval(() => response.write('0123456789abcdef'), 5);
      response.once('close', () => clearInterval(timer));
    } else {
      response.writeHead(404).end();
    }
  }));
  main.on('connection', () => (connections += 1));
  base = `http://127.0.0.1:${port}`;
  ({ server: other, port: otherPort } = await listen((_request, response) => {
    otherHits += 1;
    response.end('other');
  }));
  const closed = await listen(() => undefined);
  closedPort = closed.port;
  await close(closed.server);
});

afterAll(async () => {
  await close(main);
  await close(other);
});

/** A fetcher that admits the main test server and nothing else. */
function fetcher(options: SafeFetcherOptions = {}): SafeFetcher {
  return new SafeFetcher({ allowlist: [`127.0.0.1:${port}`], ...options });
}

describe('SafeFetcher: successful fetches', () => {
  it('returns the body, status, final URL, lower-case media type and charset', async () => {
    const document = await fetcher().fetch(`${base}/doc.md`);
    expect(document).toEqual({
      url: `${base}/doc.md`,
      status: 200,
      contentType: 'text/markdown',
      charset: 'utf-8',
      body: Buffer.from('# Grüße\n'),
    });
  });

  it("gives '' as the content type and no charset when the server names none", async () => {
    const document = await fetcher().fetch(`${base}/untyped`);
    expect(document.contentType).toBe('');
    expect(document).not.toHaveProperty('charset');
    expect(document.body.toString()).toBe('no type');
  });

  it('identifies itself, states what it accepts and asks for an uncompressed body', async () => {
    const headers = JSON.parse((await fetcher().fetch(`${base}/echo`)).body.toString());
    expect(headers['user-agent']).toBe('Quire-Importer/1.0');
    expect(headers.accept).toBe('text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1');
    expect(headers['accept-encoding']).toBe('identity');
    expect(headers.host).toBe(`127.0.0.1:${port}`);
  });

  it('connects to the address it checked, once resolved, and keeps the host name in the Host header', async () => {
    const dns = fakeDns({ 'docs.example.test': ['127.0.0.1'] });
    const document = await new SafeFetcher({ allowlist: [`DOCS.Example.test:${port}`], lookup: dns }).fetch(
      `http://docs.example.test:${port}/echo`,
    );
    expect(JSON.parse(document.body.toString()).host).toBe(`docs.example.test:${port}`);
    expect(document.url).toBe(`http://docs.example.test:${port}/echo`);
    // Node never asked DNS itself (docs.example.test does not exist), and our lookup ran once: nothing to rebind.
    expect(dns.calls).toEqual(['docs.example.test']);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const document = await fetcher({ maxBytes: 100 }).fetch(`${base}/sized?bytes=100`);
    expect(document.body).toHaveLength(100);
  });
});

describe('SafeFetcher: schemes and malformed addresses', () => {
  it.each([
    'file:///etc/passwd',
    'ftp://127.0.0.1/file',
    'data:text/plain,hello',
    'gopher://127.0.0.1:70/',
    'javascript:alert(1)',
  ])('refuses %s', async (url) => {
    const error = await refusal(fetcher().fetch(url));
    expect(error.reason).toBe('scheme');
    expect(error.message).toContain('Only http and https');
    expect(error.message).toContain(new URL(url).protocol);
  });

  it('refuses text that is not a URL', async () => {
    const error = await refusal(fetcher().fetch('not a url'));
    expect(error.reason).toBe('url');
    expect(error.message).toContain('"not a url" is not a valid web address');
  });

  it('refuses an address with credentials, even to an allowlisted server', async () => {
    const error = await refusal(fetcher().fetch(`http://user:secret@127.0.0.1:${port}/doc.md`));
    expect(error.reason).toBe('url');
    expect(error.message).toContain('user name or password');
  });
});

describe('SafeFetcher: address guard', () => {
  it.each([
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://127.1/', '127.0.0.1 is a loopback address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address (cloud metadata'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
    ['http://172.16.5.4/', '172.16.5.4 is a private address'],
    ['http://192.168.1.1/', '192.168.1.1 is a private address'],
    ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT address'],
    ['http://0.0.0.0/', '0.0.0.0 is an unspecified address'],
    ['http://224.0.0.1/', '224.0.0.1 is a multicast address'],
    ['http://255.255.255.255/', '255.255.255.255 is a broadcast address'],
    ['http://240.0.0.1/', '240.0.0.1 is a reserved address'],
    ['http://[::1]/', '::1 is a loopback address'],
    ['http://[::]/', ':: is an unspecified address'],
    ['http://[fd00::1]/', 'fd00::1 is a unique-local (private) address'],
    ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 (IPv4 127.0.0.1) is a loopback address'],
    ['http://[::ffff:169.254.169.254]/', '(IPv4 169.254.169.254) is a link-local address'],
  ])('refuses %s', async (url, words) => {
    const lookup = fakeDns({});
    const error = await refusal(fetcher({ lookup }).fetch(url));
    expect(error.reason).toBe('address');
    expect(error.message).toContain(words);
    expect(lookup.calls).toEqual([]); // IP literals are checked as written, not resolved
  });

  it('refuses localhost as resolved by the real DNS', async () => {
    const error = await refusal(fetcher().fetch(`http://localhost:${port}/doc.md`));
    expect(error.reason).toBe('address');
    expect(error.message).toMatch(/^localhost is not public: .* is a loopback address$/);
  });

  it('refuses a host when one of its addresses is private, whatever the others are', async () => {
    const lookup = fakeDns({ 'docs.example.test': ['93.184.216.34', '10.20.30.40', '93.184.216.35'] });
    const error = await refusal(fetcher({ lookup }).fetch('https://docs.example.test/guide.md'));
    expect(error.reason).toBe('address');
    expect(error.message).toBe('docs.example.test is not public: 10.20.30.40 is a private address');
  });

  it('refuses a host with a unique-local IPv6 address among public ones', async () => {
    const lookup = fakeDns({ 'docs.example.test': ['2606:2800:220:1:248:1893:25c8:1946', 'fd12:3456::1'] });
    const error = await refusal(fetcher({ lookup }).fetch('http://docs.example.test/'));
    expect(error.reason).toBe('address');
    expect(error.message).toContain('fd12:3456::1 is a unique-local (private) address');
  });

  it('refuses a host that resolves to an IPv4-mapped loopback address', async () => {
    const lookup = fakeDns({ 'docs.example.test': ['::ffff:127.0.0.1'] });
    const error = await refusal(fetcher({ lookup }).fetch('http://docs.example.test/'));
    expect(error.reason).toBe('address');
    expect(error.message).toContain('(IPv4 127.0.0.1) is a loopback address');
  });
});

describe('SafeFetcher: allowlist', () => {
  it('admits exactly the host and port as written: 127.0.0.1:PORT does not admit localhost:PORT', async () => {
    await expect(fetcher().fetch(`${base}/doc.md`)).resolves.toMatchObject({ status: 200 });
    const error = await refusal(fetcher().fetch(`http://localhost:${port}/doc.md`));
    expect(error.reason).toBe('address');
  });

  it('does not admit another port of the same host', async () => {
    const error = await refusal(fetcher().fetch(`http://127.0.0.1:${otherPort}/`));
    expect(error.reason).toBe('address');
    expect(error.message).toContain('127.0.0.1 is a loopback address');
    expect(otherHits).toBe(0);
  });

  it('does not treat an entry without a port as a wildcard', async () => {
    const error = await refusal(new SafeFetcher({ allowlist: ['127.0.0.1'] }).fetch(`${base}/doc.md`));
    expect(error.reason).toBe('address');
  });

  it('implies port 80 for http when the URL names none', async () => {
    const lookup = fakeDns({ 'docs.example.test': ['127.0.0.1'] });
    const outcome = (options: SafeFetcherOptions, url: string) =>
      new SafeFetcher({ lookup, timeoutMs: 2000, ...options }).fetch(url).then(
        () => 'fetched',
        (error: FetchRefused) => error.reason,
      );
    // Admitted: whatever happens on port 80 of this machine, it is not the address guard that stops it.
    expect(await outcome({ allowlist: ['docs.example.test:80'] }, 'http://docs.example.test/')).not.toBe('address');
    expect(await outcome({ allowlist: ['docs.example.test:443'] }, 'http://docs.example.test/')).toBe('address');
    expect(await outcome({ allowlist: ['docs.example.test:80'] }, 'https://docs.example.test/')).toBe('address');
  });

  it('still applies the scheme, size and time rules to allowlisted servers', async () => {
    expect((await refusal(fetcher().fetch(`ftp://127.0.0.1:${port}/`))).reason).toBe('scheme');
    expect((await refusal(fetcher({ maxBytes: 5 }).fetch(`${base}/doc.md`))).reason).toBe('too-large');
    expect((await refusal(fetcher({ timeoutMs: 100 }).fetch(`${base}/hang`))).reason).toBe('timeout');
  });
});

describe('SafeFetcher: redirects', () => {
  it('follows 5 redirects, resolving relative locations, and reports the final URL', async () => {
    const document = await fetcher().fetch(`${base}/hop/5`);
    expect(document.url).toBe(`${base}/hop/0`);
    expect(document.body.toString()).toBe('arrived');
  });

  it('refuses a sixth redirect', async () => {
    const error = await refusal(fetcher().fetch(`${base}/hop/6`));
    expect(error.reason).toBe('redirects');
    expect(error.message).toBe(`${base}/hop/6 redirected more than 5 times`);
  });

  it('honours a smaller maxRedirects', async () => {
    expect((await refusal(fetcher({ maxRedirects: 1 }).fetch(`${base}/hop/2`))).reason).toBe('redirects');
    await expect(fetcher({ maxRedirects: 1 }).fetch(`${base}/hop/1`)).resolves.toMatchObject({ status: 200 });
  });

  it.each([301, 302, 303, 307, 308])('follows a %i redirect', async (status) => {
    const to = encodeURIComponent(`${base}/doc.md`);
    const document = await fetcher().fetch(`${base}/redirect?status=${status}&to=${to}`);
    expect(document.url).toBe(`${base}/doc.md`);
  });

  it('refuses a redirect from an allowlisted server to a loopback port that is not allowlisted', async () => {
    const to = encodeURIComponent(`http://127.0.0.1:${otherPort}/`);
    const error = await refusal(fetcher().fetch(`${base}/redirect?to=${to}`));
    expect(error.reason).toBe('address');
    expect(error.message).toBe(`127.0.0.1:${port} redirected elsewhere: 127.0.0.1 is a loopback address`);
    expect(otherHits).toBe(0);
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/iam/');
    const error = await refusal(fetcher().fetch(`${base}/redirect?status=307&to=${to}`));
    expect(error.reason).toBe('address');
    expect(error.message).toContain('169.254.169.254 is a link-local address');
  });

  it('refuses a redirect to a host whose DNS answer is private', async () => {
    const lookup = fakeDns({ 'internal.example.test': ['192.168.0.10'] });
    const to = encodeURIComponent('http://internal.example.test/admin');
    const error = await refusal(fetcher({ lookup }).fetch(`${base}/redirect?to=${to}`));
    expect(error.reason).toBe('address');
    expect(error.message).toContain('internal.example.test is not public: 192.168.0.10 is a private address');
  });

  it('refuses a redirect to a file: URL', async () => {
    const error = await refusal(fetcher().fetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`));
    expect(error.reason).toBe('scheme');
    expect(error.message).toContain('redirected elsewhere: Only http and https');
  });

  it('refuses a redirect without a Location', async () => {
    const error = await refusal(fetcher().fetch(`${base}/redirect?status=302`));
    expect(error.reason).toBe('status');
    expect(error.message).toContain('answered 302 without a new address');
  });
});

describe('SafeFetcher: time limit', () => {
  it('gives up on a server that never answers and closes the connection', async () => {
    const started = Date.now();
    const error = await refusal(fetcher({ timeoutMs: 200 }).fetch(`${base}/hang`));
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe(`127.0.0.1:${port} did not answer within 200 ms`);
    expect(Date.now() - started).toBeLessThan(1500);
    await until(() => closedSockets.includes('/hang'));
  });

  it('gives up on a body that stops arriving', async () => {
    const error = await refusal(fetcher({ timeoutMs: 200 }).fetch(`${base}/stall-body`));
    expect(error.reason).toBe('timeout');
    await until(() => closedSockets.includes('/stall-body'));
  });

  it('counts the time of all redirects together', async () => {
    // each hop takes 120 ms, well within the limit on its own
    const error = await refusal(fetcher({ timeoutMs: 300 }).fetch(`${base}/slow-hop/4`));
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('did not answer within 300 ms');
  });

  it('counts the time DNS takes', async () => {
    const lookup: HostLookup = () => new Promise(() => undefined);
    const error = await refusal(new SafeFetcher({ lookup, timeoutMs: 100 }).fetch('http://slow-dns.example.test/'));
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe('slow-dns.example.test did not answer within 100 ms');
  });
});

describe('SafeFetcher: size limit', () => {
  it('refuses a declared Content-Length above maxBytes without waiting for the body', async () => {
    const error = await refusal(fetcher({ maxBytes: 1024, timeoutMs: 5000 }).fetch(`${base}/declared-huge`));
    expect(error.reason).toBe('too-large');
    expect(error.message).toBe(`The document at ${base}/declared-huge is larger than 1 KB`);
    await until(() => closedSockets.includes('/declared-huge'));
  });

  it('stops reading a chunked body as soon as it passes maxBytes', async () => {
    const error = await refusal(fetcher({ maxBytes: 100, timeoutMs: 5000 }).fetch(`${base}/endless`));
    expect(error.reason).toBe('too-large');
    expect(error.message).toContain('is larger than 100 bytes');
    await until(() => closedSockets.includes('/endless'));
  });

  it('refuses a body one byte over maxBytes', async () => {
    const error = await refusal(fetcher({ maxBytes: 100 }).fetch(`${base}/sized?bytes=101`));
    expect(error.reason).toBe('too-large');
  });
});

describe('SafeFetcher: status and network errors', () => {
  it.each([404, 500, 304])('refuses a final %i answer', async (code) => {
    const error = await refusal(fetcher().fetch(`${base}/status?code=${code}`));
    expect(error.reason).toBe('status');
    expect(error.message).toBe(`${base}/status?code=${code} answered ${code}`);
  });

  it('reports a refused connection with its code', async () => {
    const allowlist = [`127.0.0.1:${closedPort}`];
    const error = await refusal(new SafeFetcher({ allowlist }).fetch(`http://127.0.0.1:${closedPort}/`));
    expect(error.reason).toBe('network');
    expect(error.message).toBe(`Could not reach 127.0.0.1:${closedPort} (ECONNREFUSED)`);
  });

  it('reports a host DNS does not know', async () => {
    const error = await refusal(fetcher({ lookup: fakeDns({}) }).fetch('http://nowhere.example.test/'));
    expect(error.reason).toBe('network');
    expect(error.message).toBe('Could not find nowhere.example.test (ENOTFOUND)');
  });

  it('reports a failed TLS handshake', async () => {
    // the allowlisted server speaks plain HTTP, so the TLS handshake fails
    const error = await refusal(fetcher({ allowlist: [`127.0.0.1:${port}`] }).fetch(`https://127.0.0.1:${port}/`));
    expect(error.reason).toBe('network');
    expect(error.message).toMatch(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port} \\([A-Z_]+\\)$`));
  });
});

describe('SafeFetcher: send (webhook deliveries)', () => {
  const post = (body = '{"a":1}') => ({
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
    body,
    maxResponseBytes: 1024,
  });

  it('sends the method, headers and body, and answers the status with the beginning of the body', async () => {
    const answer = await fetcher().send(`${base}/post-echo`, post());
    expect(answer.status).toBe(200);
    const echoed = JSON.parse(answer.body.toString()) as {
      method: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(echoed).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(echoed.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'evt_1' });
  });

  it('answers a non-2xx status instead of refusing it', async () => {
    expect((await fetcher().send(`${base}/post-echo?code=500`, post())).status).toBe(500);
    expect((await fetcher().send(`${base}/status?code=404`, post())).body.toString()).toBe('nope');
  });

  it('never follows a redirect: the 3xx is the answer', async () => {
    const answer = await fetcher().send(`${base}/redirect?status=307&to=http://127.0.0.1:${otherPort}/`, post());
    expect(answer.status).toBe(307);
    expect(otherHits).toBe(0);
  });

  it('reads at most maxResponseBytes of the answer and closes the connection', async () => {
    const answer = await fetcher({ timeoutMs: 5000 }).send(`${base}/endless`, { ...post(), maxResponseBytes: 100 });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(100);
    await until(() => closedSockets.includes('/endless'));
  });

  it('keeps the connection between deliveries to one receiver whose answers it read to the end', async () => {
    const sender = fetcher();
    const before = connections;
    for (let i = 0; i < 3; i++) expect((await sender.send(`${base}/post-echo`, post())).status).toBe(200);
    expect(connections - before).toBe(1);
    // an answer longer than what is read of it closes its connection: the next delivery opens another
    await sender.send(`${base}/sized?bytes=5000`, post());
    await sender.send(`${base}/post-echo`, post());
    expect(connections - before).toBe(2);
    sender.close();
  });

  it('sends a delivery again on a new connection when the kept one was closed under it', async () => {
    const sender = fetcher();
    const before = connections;
    expect((await sender.send(`${base}/first-of-connection`, post())).body.toString()).toBe('first');
    expect((await sender.send(`${base}/first-of-connection`, post())).body.toString()).toBe('first');
    // the second delivery went out on the kept connection, met its end, and went out again on a new one
    expect(firstOfConnectionRequests).toBe(3);
    expect(connections - before).toBe(2);
    sender.close();
  });

  it('never uses a kept connection for an address the host no longer resolves to', async () => {
    const dns = fakeDns({ 'hooks.example': ['127.0.0.1'] });
    const sender = new SafeFetcher({ allowlist: [`hooks.example:${port}`], lookup: dns });
    expect((await sender.send(`http://hooks.example:${port}/post-echo`, post())).status).toBe(200);
    // the name now points elsewhere (nothing listens on 127.0.0.2 at this port): the kept connection is not used
    dns.table['hooks.example'] = ['127.0.0.2'];
    const moved = await refusal(sender.send(`http://hooks.example:${port}/post-echo`, post()));
    expect(moved.reason).toBe('network');
    expect(moved.message).toContain('ECONNREFUSED');
    sender.close();
  });

  it('does not keep connections for fetches (imports)', async () => {
    const importer = fetcher();
    const before = connections;
    await importer.fetch(`${base}/doc.md`);
    await importer.fetch(`${base}/doc.md`);
    expect(connections - before).toBe(2);
  });

  it('applies the address guard and the time limit', async () => {
    const guarded = await refusal(new SafeFetcher().send(`http://127.0.0.1:${port}/post-echo`, post()));
    expect(guarded.reason).toBe('address');
    const slow = await refusal(fetcher({ timeoutMs: 200 }).send(`${base}/hang`, post()));
    expect(slow.reason).toBe('timeout');
  });
});

describe('parseAllowlist', () => {
  it('splits on commas, trims, drops empty entries and lower-cases', () => {
    expect(parseAllowlist(' Docs.Example.TEST:8080 , ,127.0.0.1:3000,')).toEqual([
      'docs.example.test:8080',
      '127.0.0.1:3000',
    ]);
  });

  it('gives an empty list for an unset or empty setting', () => {
    expect(parseAllowlist(undefined)).toEqual([]);
    expect(parseAllowlist('')).toEqual([]);
    expect(parseAllowlist(' , ')).toEqual([]);
  });
});
