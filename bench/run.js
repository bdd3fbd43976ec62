'use strict';
/**
 * `npm run bench`: load and replay benchmarks on loopback with the embedded backends.
 *
 * 1. The built service (dist/) started as its own process on a fresh data directory, a user and organization
 *    created through the CLI; GET and PATCH /v1/orgs/{id}. Then, in the same service process: 10,000 spaces
 *    appended to the organization through the domain's createSpace by a child process (bench/seed-spaces.js),
 *    and GET /v1/spaces/{id}, GET /v1/orgs/{id}/spaces?limit=100 and PATCH /v1/spaces/{id}.
 * 2. Each route is measured against its own baseline: a raw node:http server in its own process answering the
 *    service's body for that route (bench/baseline-server.js). Rounds alternate baseline and service, BENCH_ROUNDS
 *    times (default 3); the ratio of each round, and its min, median and max, are reported.
 *    Then GET of a space's 50 custom fields (against its baseline) and the processing of a 2 MB OpenAPI document
 *    fetched from this process (time and the service's peak RSS).
 *    The same service then serves `/health` while bench/hostile-client.js sends 80,000-key bodies in a loop, and
 *    while it holds 5,000 connections with unfinished bodies.
 * 3. Event-store appends per second and projection replay over 1,000,000 events (bench/stores.js).
 * 4. Webhook delivery throughput to a local receiver, for one and for ten webhooks (bench/webhooks.js).
 * 5. Search (bench/search.js): 100,000 generated pages written as events, indexed by the search projection's
 *    replay at start-up (pages/s), then searched over HTTP at 10 connections against raw node:http.
 * 6. Fan-out of one organization's events to 100 Server-Sent Events subscribers (bench/feed.js); BENCH_SKIP_FEED=1
 *    leaves it out.
 *
 * BENCH_ONLY=search runs part 5 alone and replaces only the Search section of bench/README.md (the rest of the
 * file stays from the last full run); BENCH_SKIP_SEARCH=1 leaves part 5 out of a full run.
 *
 * Results go to bench/README.md (table, machine, date). Durations: BENCH_SECONDS (default 10), BENCH_ROUNDS,
 * replay size: BENCH_REPLAY_EVENTS (default 1,000,000); BENCH_SKIP_STORES=1 skips part 3, BENCH_SKIP_WEBHOOKS=1 part 4.
 */
const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, readFileSync, writeFileSync } = require('node:fs');
const { tmpdir, cpus, totalmem, platform, release } = require('node:os');
const { dirname, join } = require('node:path');
const autocannon = require('autocannon');

const ROOT = join(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = 50;
const SKIP_STORES = process.env.BENCH_SKIP_STORES === '1';
const SPACES = 10_000;
const LIST_LIMIT = 100;

function startProcess(command, args, env, readyLine) {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = readyLine(output);
      if (match) resolve({ child, match });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function summarise(name, result) {
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
  return Math.round(kb / 1024);
}

/** Starts a server in its own process (by default the raw node:http baseline) that answers `body` to every request. */
async function startBaseline(body, script = 'baseline-server.js') {
  const file = join(mkdtempSync(join(tmpdir(), 'quire-bench-baseline-')), 'body.json');
  writeFileSync(file, body);
  const { child, match } = await startProcess('node', [join(__dirname, script)], { BASELINE_BODY_FILE: file }, (out) =>
    /^(\d+)\n/m.exec(out),
  );
  return {
    url: `http://127.0.0.1:${match[1]}`,
    pid: child.pid,
    stop: async () => {
      await stopProcess(child);
      rmSync(dirname(file), { recursive: true, force: true });
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** CPU time (user + system) a process has used, in microseconds, from /proc. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * How `npm start` runs the service under `root` (the node flags and script of package.json's start script), so
 * that the benchmarks measure the process users run.
 */
function serviceCommand(root = ROOT) {
  const [command, ...args] = require(join(root, 'package.json')).scripts.start.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`the start script does not run node: ${command}`);
  return args.map((arg) => (arg.startsWith('-') ? arg : join(root, arg)));
}

/** The service process the HTTP rows measure (its CPU time per answer is read from /proc). */
let servicePid;

/** One load run with the server's CPU time per answer (steadier than req/s on a shared host). */
async function loadWithCpu(name, options, pid) {
  const before = cpuOf(pid);
  const result = summarise(name, await load(options));
  return { ...result, cpu: Math.round((cpuOf(pid) - before) / Math.max(1, result.total)) };
}

/**
 * Measures one route against its baseline: the body the service answers (fetched once) is what the baseline
 * answers; then ROUNDS rounds of baseline then service. `request(base)` gives autocannon's options for a base URL.
 */
async function measureRoute(name, { serviceUrl, sample, request, ceiling = false }) {
  const baseline = await startBaseline(sample);
  // For reads, the framework's ceiling too: Nest with the service's pipe, guard and query bus, no read at all.
  const reference = ceiling ? await startBaseline(sample, 'framework-ceiling-server.js') : null;
  try {
    await load({ ...request(baseline.url), duration: 1 }); // warm-up
    if (reference) await load({ ...request(reference.url), duration: 1 });
    await load({ ...request(serviceUrl), duration: 2 }); // warm-up
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      console.error(`  ${name}: round ${round + 1} of ${ROUNDS}`);
      const base = await loadWithCpu('baseline', request(baseline.url), baseline.pid);
      const framework = reference ? await loadWithCpu('framework', request(reference.url), reference.pid) : null;
      const service = await loadWithCpu(name, request(serviceUrl), servicePid);
      if (service.non2xx > 0) throw new Error(`${name}: ${service.non2xx} answers were not 2xx`);
      if (framework && framework.non2xx > 0) throw new Error(`${name}: the framework ceiling answered non-2xx`);
      rounds.push({
        base,
        service,
        ratio: service.rps / base.rps,
        framework: framework && framework.rps / base.rps,
        frameworkCpu: framework?.cpu,
        frameworkP99: framework?.p99,
      });
    }
    const ratios = rounds.map((r) => r.ratio);
    const frameworkRatios = reference ? rounds.map((r) => r.framework) : null;
    return {
      framework: frameworkRatios && {
        min: Math.min(...frameworkRatios),
        median: median(frameworkRatios),
        max: Math.max(...frameworkRatios),
      },
      name,
      rounds,
      bodyBytes: Buffer.byteLength(sample),
      ratio: { min: Math.min(...ratios), median: median(ratios), max: Math.max(...ratios) },
      rps: median(rounds.map((r) => r.service.rps)),
      baseRps: median(rounds.map((r) => r.base.rps)),
      p50: median(rounds.map((r) => r.service.p50)),
      p99: median(rounds.map((r) => r.service.p99)),
      p99Max: Math.max(...rounds.map((r) => r.service.p99)),
      baseP99: median(rounds.map((r) => r.base.p99)),
      frameworkP99: reference ? median(rounds.map((r) => r.frameworkP99)) : null,
      cpu: {
        base: median(rounds.map((r) => r.base.cpu)),
        service: median(rounds.map((r) => r.service.cpu)),
        framework: reference ? median(rounds.map((r) => r.frameworkCpu)) : null,
      },
      total: rounds.reduce((sum, r) => sum + r.service.total, 0),
    };
  } finally {
    await baseline.stop();
    await reference?.stop();
  }
}

async function measureService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  // the OpenAPI document the service fetches is served from this process, on loopback: allowed explicitly
  const openApi = await serveOpenApiDocument();
  const env = {
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    FETCH_ALLOWLIST: `127.0.0.1:${openApi.port}`,
  };
  const { child, match } = await startProcess('node', serviceCommand(), env, (out) =>
    /listening on http:\/\/[^:]+:(\d+)/.exec(out),
  );
  const url = `http://127.0.0.1:${match[1]}`;
  servicePid = child.pid;
  try {
    const line = execFileSync(
      'node',
      ['dist/apps/cli/src/main.js', 'bootstrap', '--email', 'bench@example.com', '--org', 'Bench', '--json'],
      { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .pop();
    const { token, organizationId, userId } = JSON.parse(line);
    const headers = { authorization: `Bearer ${token}` };
    const path = `${url}/v1/orgs/${organizationId}`;
    // the CLI appended from another process: wait until the service sees the organization
    for (let i = 0; i < 200; i++) {
      const response = await fetch(path, { headers });
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const orgPath = `/v1/orgs/${organizationId}`;
    const get = await measureRoute('GET /v1/orgs/{id}', {
      ceiling: true,
      serviceUrl: url,
      sample: (await getText(path, headers)).text,
      request: (base) => ({ url: `${base}${orgPath}`, headers }),
    });
    const rssAfterGet = rssOf(child.pid);
    const patchRequest = (base) => ({
      url: `${base}${orgPath}`,
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Bench [<id>]' }),
      idReplacement: true,
    });
    const patch = await measureRoute('PATCH /v1/orgs/{id}', {
      serviceUrl: url,
      sample: await sampleWrite(patchRequest(url)),
      request: patchRequest,
    });
    const spaces = await measureSpaces({ url, env, headers, organizationId, userId });
    const changeRequestGet = await measureChangeRequest({ url, headers, organizationId });
    const sites = await measureSites({ url, headers, organizationId });
    const extensibility = await measureExtensibility({ url, headers, organizationId, pid: child.pid, openApi });
    const hostile = await measureHostile({ url, token });
    const rssAtEnd = rssOf(child.pid);
    return { get, patch, rssAfterGet, rssAtEnd, ...spaces, changeRequestGet, ...sites, ...extensibility, hostile };
  } finally {
    openApi.server.close();
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** GET of one change request (its space's access, the change request document, its author), against raw node:http. */
async function measureChangeRequest({ url, headers, organizationId }) {
  const json = { ...headers, 'content-type': 'application/json' };
  const post = async (path, body) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}`);
    return response.json();
  };
  const space = await post(`/v1/orgs/${organizationId}/spaces`, { title: 'Review bench' });
  const changeRequest = await post(`/v1/spaces/${space.id}/change-requests`, { subject: 'Bench' });
  const path = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  return measureRoute('GET /v1/spaces/{id}/change-requests/{id}', {
    ceiling: true,
    serviceUrl: url,
    sample: (await getText(`${url}${path}`, headers)).text,
    request: (base) => ({ url: `${base}${path}`, headers }),
  });
}

const SITE_SECTIONS = 50;
const SITE_SPACES = 500;

/**
 * A large docs site (SITE_SECTIONS sections holding SITE_SPACES site spaces, built over HTTP from the seeded
 * spaces): GET of the site against raw node:http at the usual load, and GET of its published view, whose body
 * carries every site space with its space, one request at a time (its latency is the target).
 */
async function measureSites({ url, headers, organizationId }) {
  const json = { ...headers, 'content-type': 'application/json' };
  const call = async (method, path, body, expected) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? headers : json,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  };
  const listed = await call('GET', `/v1/orgs/${organizationId}/spaces?limit=${SITE_SPACES}`, undefined, 200);
  const spaceIds = listed.items.map((space) => space.id);
  const sites = `/v1/orgs/${organizationId}/sites`;
  const site = await call('POST', sites, { title: 'Large site' }, 201);
  const perSection = SITE_SPACES / SITE_SECTIONS;
  const started = Date.now();
  for (let s = 0; s < SITE_SECTIONS; s++) {
    const ids = spaceIds.slice(s * perSection, (s + 1) * perSection);
    const section = await call('POST', `${sites}/${site.id}/sections`, { spaceId: ids[0], title: `Section ${s}` }, 201);
    for (const spaceId of ids.slice(1)) {
      await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId, sectionId: section.id }, 201);
    }
  }
  const buildSeconds = ((Date.now() - started) / 1000).toFixed(1);
  await call('POST', `${sites}/${site.id}/publish`, undefined, 200);
  const sitePath = `${sites}/${site.id}`;
  const siteGet = await measureRoute('GET /v1/orgs/{id}/sites/{id}', {
    ceiling: true,
    serviceUrl: url,
    sample: (await getText(`${url}${sitePath}`, headers)).text,
    request: (base) => ({ url: `${base}${sitePath}`, headers }),
  });
  const publishedUrl = `${url}${sitePath}/published`;
  const body = (await getText(publishedUrl, headers)).text;
  const check = JSON.parse(body);
  const shown = check.structure.structure.reduce((sum, section) => sum + section.siteSpaces.length, 0);
  if (check.structure.structure.length !== SITE_SECTIONS || shown !== SITE_SPACES) {
    throw new Error(`the published view shows ${check.structure.structure.length} sections and ${shown} site spaces`);
  }
  await load({ url: publishedUrl, headers, connections: 1, duration: 2 }); // warm-up
  const published = summarise(
    'GET .../sites/{id}/published',
    await load({ url: publishedUrl, headers, connections: 1 }),
  );
  if (published.non2xx > 0) throw new Error('the published view answered non-2xx');
  return { siteGet, published: { ...published, bodyBytes: Buffer.byteLength(body), buildSeconds } };
}

const CUSTOM_FIELDS = 50;

/** A valid OpenAPI 3.0 document of about 2 MB (many operations with their schemas), served on loopback. */
async function serveOpenApiDocument() {
  const paths = {};
  for (let i = 0, size = 0; size < 2 * 1024 * 1024 - 4096; i++) {
    const item = {
      get: {
        operationId: `getResource${i}`,
        summary: `Read resource ${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'The resource',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    title: { type: 'string', maxLength: 100 },
                    tags: { type: 'array', items: { type: 'string' } },
                    count: { type: 'integer', minimum: 0 },
                  },
                  required: ['id'],
                },
              },
            },
          },
        },
      },
    };
    paths[`/resources${i}/{id}`] = item;
    size += JSON.stringify(item).length + 24;
  }
  const body = JSON.stringify({ openapi: '3.0.3', info: { title: 'Bench', version: '1.0.0' }, paths });
  const server = require('node:http').createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(body),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port, bytes: Buffer.byteLength(body) };
}

/**
 * Extensibility: GET of the custom fields of a space holding a value for each of ${CUSTOM_FIELDS} fields, against
 * raw node:http; and the processing of a 2 MB OpenAPI document from its URL: time from the PUT to `complete`, and
 * the service's peak RSS meanwhile (the validation worker is a thread of the same process).
 */
async function measureExtensibility({ url, headers, organizationId, pid, openApi }) {
  const json = { ...headers, 'content-type': 'application/json' };
  const call = async (method, path, body, expected) => {
    const response = await fetch(`${url}${path}`, { method, headers: json, body: body && JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Described' }, 201);
  const kinds = ['text', 'number', 'boolean', 'tags', 'select:single'];
  const values = {};
  for (let i = 0; i < CUSTOM_FIELDS; i++) {
    const type = kinds[i % kinds.length];
    const name = `field${i}`;
    const options = type === 'select:single' ? { options: ['alpha', 'beta', 'gamma'] } : {};
    await call(
      'POST',
      `/v1/orgs/${organizationId}/custom-fields`,
      { name, type, title: `Field ${i}`, ...options },
      201,
    );
    values[name] = {
      value: { text: `value ${i}`, number: i, boolean: i % 2 === 0, tags: ['a', 'b'], 'select:single': 'beta' }[type],
    };
  }
  await call('PATCH', `/v1/spaces/${space.id}/custom-fields`, { values }, 204);
  const fieldsPath = `/v1/spaces/${space.id}/custom-fields`;
  const sample = (await getText(`${url}${fieldsPath}`, headers)).text;
  const listed = JSON.parse(sample); // spec 0.91.0: an array of {customField, value?}
  if (listed.length !== CUSTOM_FIELDS || listed.some((item) => item.value === undefined)) {
    throw new Error(`the space lists ${listed.length} fields, some without their value`);
  }
  const customFieldsGet = await measureRoute(`GET /v1/spaces/{id}/custom-fields (${CUSTOM_FIELDS} fields)`, {
    ceiling: true,
    serviceUrl: url,
    sample,
    request: (base) => ({ url: `${base}${fieldsPath}`, headers }),
  });

  const rssBefore = rssOf(pid);
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const started = performance.now();
  const specPath = `/v1/orgs/${organizationId}/openapi/bench`;
  await call('PUT', specPath, { source: { url: `http://127.0.0.1:${openApi.port}/openapi.json` } }, 201);
  let spec;
  for (;;) {
    spec = await call('GET', specPath, undefined, 200);
    if (spec.processingState === 'complete') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  clearInterval(sampler);
  if (spec.lastProcessErrorCode || !spec.lastVersion)
    throw new Error(`OpenAPI processing failed: ${JSON.stringify(spec)}`);
  return {
    customFieldsGet,
    openApiProcessing: { bytes: openApi.bytes, seconds, rssBefore, rssPeak: peak },
  };
}

const SLOW_CONNECTIONS = 5000;

/**
 * `/health`, one request at a time, while a hostile client in its own process (bench/hostile-client.js) either
 * sends an 80,000-key body in a loop or holds ${SLOW_CONNECTIONS} connections whose bodies never end; and quiet, for
 * comparison.
 */
async function measureHostile({ url, token }) {
  const health = `${url}/health`;
  const measure = async (name) => {
    const result = summarise(name, await load({ url: health, connections: 1 }));
    if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} requests failed`);
    return result;
  };
  const quiet = await measure('GET /health, quiet');
  const keys = await startProcess('node', ['bench/hostile-client.js', 'keys', url, token], {}, (out) =>
    /^ready$/m.exec(out),
  );
  let underKeys;
  let keysOutput = '';
  keys.child.stdout.on('data', (chunk) => (keysOutput += chunk));
  try {
    underKeys = await measure('GET /health while 80,000-key bodies arrive');
  } finally {
    await stopProcess(keys.child);
  }
  const counts = [...keysOutput.matchAll(/sent (\d+) refused (\d+)/g)].pop();
  underKeys.attack = counts ? `${counts[1]} bodies sent, ${counts[2]} refused with 400` : 'no count';
  const slow = await startProcess(
    'node',
    ['bench/hostile-client.js', 'slow', url, String(SLOW_CONNECTIONS)],
    {},
    (out) => /ready (\d+) open/.exec(out),
  );
  let underSlow;
  try {
    underSlow = await measure(`GET /health while ${SLOW_CONNECTIONS} slow-body connections are held`);
    underSlow.attack = `${slow.match[1]} of ${SLOW_CONNECTIONS} connections open when the run began`;
  } finally {
    await stopProcess(slow.child);
  }
  return { quiet, underKeys, underSlow };
}

async function getText(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return { status: response.status, text: await response.text() };
}

/** One write as autocannon would send it (with a fresh id), to learn the body the service answers. */
async function sampleWrite({ url, method, headers, body }) {
  const response = await fetch(url, { method, headers, body: body.replace('[<id>]', `${Date.now()}`.padEnd(33, '0')) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return text;
}

async function getJson(url, headers) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

function seedSpaces(env, organizationId, userId, count = SPACES) {
  const output = execFileSync('node', [join(__dirname, 'seed-spaces.js'), organizationId, userId, String(count)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').pop());
}

/** Seeds the organization with SPACES spaces, then measures GET /v1/spaces/{id}, the list, and PATCH. */
async function measureSpaces({ url, env, headers, organizationId, userId }) {
  const listUrl = `${url}/v1/orgs/${organizationId}/spaces`;
  const before = await getJson(`${listUrl}?limit=0`, headers);
  if (before.status !== 200 || before.body.count !== 0) {
    throw new Error(
      `expected an organization without spaces before seeding, got ${before.status} ${JSON.stringify(before.body)}`,
    );
  }
  const seedStart = Date.now();
  const seed = seedSpaces(env, organizationId, userId);
  // the spaces were appended by another process: wait until the service's projections have all of them
  let seen;
  for (let waited = 0; ; waited += 50) {
    seen = await getJson(`${listUrl}?limit=0`, headers);
    if (seen.status === 200 && seen.body.count === SPACES) break;
    if (waited > 120_000) {
      throw new Error(
        `the service lists ${JSON.stringify(seen.body?.count)} of the ${SPACES} seeded spaces after 120 s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seedVisibleSeconds = Number(((Date.now() - seedStart) / 1000).toFixed(1));

  const listPath = `${listUrl}?limit=${LIST_LIMIT}`;
  const page = await getJson(listPath, headers);
  if (page.status !== 200 || !Array.isArray(page.body.items) || page.body.items.length !== LIST_LIMIT) {
    throw new Error(
      `GET ${listPath} must return ${LIST_LIMIT} items before it is measured; got status ${page.status} with ` +
        `${Array.isArray(page.body?.items) ? page.body.items.length : 'no'} items`,
    );
  }
  if (page.body.count !== SPACES || !page.body.next?.page) {
    throw new Error(`GET ${listPath} must report count ${SPACES} and a next page; got count ${page.body.count}`);
  }
  // a seeded space from the middle of the first page
  const spaceId = page.body.items[LIST_LIMIT / 2].id;
  const spacePath = `${url}/v1/spaces/${spaceId}`;
  const space = await getJson(spacePath, headers);
  if (space.status !== 200 || space.body.id !== spaceId) {
    throw new Error(
      `GET /v1/spaces/${spaceId} (a seeded space) answered ${space.status} ${JSON.stringify(space.body)}`,
    );
  }

  const relative = (full) => full.slice(url.length);
  const get = await measureRoute('GET /v1/spaces/{id}', {
    ceiling: true,
    serviceUrl: url,
    sample: (await getText(spacePath, headers)).text,
    request: (base) => ({ url: `${base}${relative(spacePath)}`, headers }),
  });
  const list = await measureRoute(`GET /v1/orgs/{id}/spaces?limit=${LIST_LIMIT}`, {
    serviceUrl: url,
    sample: (await getText(listPath, headers)).text,
    request: (base) => ({ url: `${base}${relative(listPath)}`, headers }),
  });
  const patchRequest = (base) => ({
    url: `${base}${relative(spacePath)}`,
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    // [<id>] becomes a 33-character hyperid: titles of 39 characters (the limit is 50)
    body: JSON.stringify({ title: 'Space [<id>]' }),
    idReplacement: true,
  });
  const patch = await measureRoute('PATCH /v1/spaces/{id}', {
    serviceUrl: url,
    sample: await sampleWrite(patchRequest(url)),
    request: patchRequest,
  });
  const after = await getJson(spacePath, headers);
  if (after.status !== 200 || !/^Space [\w-]{33}$/.test(after.body.title)) {
    throw new Error(`after the PATCH run the space's title is ${JSON.stringify(after.body?.title)}`);
  }
  return {
    spaceGet: get,
    spaceList: list,
    spacePatch: patch,
    seed: { ...seed, visibleSeconds: seedVisibleSeconds },
  };
}

function measureStores() {
  const output = execFileSync('node', ['--expose-gc', join(__dirname, 'stores.js')], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(output.trim().split('\n').pop());
}

/** Runs one of the in-process review benchmarks (bench/merge.js, bench/comments.js): its last line is JSON. */
function measureScript(script) {
  const output = execFileSync('node', [join(__dirname, script)], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(output.trim().split('\n').pop());
}

const verdict = (ok) => (ok ? 'met' : '**missed**');

/** The webhooks section (bench/webhooks.js). */
function webhookLines(webhooks) {
  if (!webhooks) return ['Skipped in this run (BENCH_SKIP_WEBHOOKS=1).', ''];
  const row = (label, r) =>
    `| ${label} | ${r.deliveries.toLocaleString('en')} | ${r.seconds} | **${r.eventsPerSecond}** | ${r.perWebhookPerSecond} | ${r.outOfOrder} |`;
  return [
    `In process on the embedded backends: ${webhooks.events.toLocaleString('en')} public events (space title changes) are recorded while`,
    'the webhooks are inactive, then they are activated; a receiver in its own process (bench/webhook-receiver.js) answers',
    '204 at once. Each delivery is signed, sent through the SSRF-safe fetcher (vetted each time, on a kept connection) and recorded as an',
    'attempt before the next one of its webhook goes out.',
    '',
    '| webhooks | deliveries | seconds | events/s delivered | per webhook | out of order |',
    '|---|---|---|---|---|---|',
    row('1', webhooks.one),
    row('10 (the same events each)', webhooks.ten),
    '',
  ];
}

const SEARCH_TARGET_P99_MS = 20;

/** The Search section of bench/README.md, from bench/search.js's result. */
function searchLines(search, startedAt) {
  if (!search) return ['Skipped in this run (BENCH_SKIP_SEARCH=1).', ''];
  const pct = (ratio) => `${(100 * ratio).toFixed(1)}%`;
  return [
    `Run ${search.runAt ?? startedAt.toISOString()} on ${search.machine}; load average when it ended ${search.loadAverage.join(', ')}`,
    `(the machine was shared with other jobs: compare with the baseline of the same row, not across runs).`,
    '',
    `${search.pages.toLocaleString('en')} pages (${search.markdownMB} MB of markdown from bench/search-corpus.js: Zipf-distributed words, English`,
    `function words in nearly every page) in ${search.spaces} spaces of ${search.perSpace.toLocaleString('en')}, appended as events by \`createSpace\``,
    `(${search.seedSeconds} s, no service running). The service then started on that data: its search projection had no`,
    `checkpoint and replayed the events into a new index, as \`projections rebuild search-index\` does:`,
    `**${search.pagesPerSecond} pages/s** (${search.indexSeconds} s from the start of the service until a search answered with every space).`,
    '',
    `Each query over HTTP for ${search.seconds} s at ${search.connections} connections, \`limit=${search.limit}\`, next to a raw node:http server in its own`,
    'process answering the same body (bench/baseline-server.js) in the same run; "alone" is the median of 20',
    'requests one at a time (no queueing). The search index keeps its answers to requests made again until it',
    'changes (a search box sends the same words again as they are typed), so the load, which repeats one request,',
    'is answered from them; "first" is the median of 20 requests one at a time each asked for the first time (the',
    'query after a different run of punctuation, which finds the same pages): what a new query costs.',
    '',
    '| query | scope | count | body | first ms | alone ms | baseline req/s | service req/s | of baseline | p50 ms | p99 ms | failed | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...search.rows.map((r) =>
      r.rps === 0
        ? `| ${r.kind}: \`${r.text}\` | ${r.scope} | ${r.count} | ${r.bytes} B | ${r.firstTimeMedianMs ?? ''} | ${r.aloneMedianMs} | ${r.baseRps} | 0 | 0% | no request ended in ${search.seconds} s | | ${r.failed} | p99 < ${SEARCH_TARGET_P99_MS} ms: ${verdict(false)} |`
        : `| ${r.kind}: \`${r.text}\` | ${r.scope} | ${r.count} | ${r.bytes} B | ${r.firstTimeMedianMs ?? ''} | ${r.aloneMedianMs} | ${r.baseRps} | ${r.rps} | ${pct(r.ratio)} | ${r.p50} | ${r.p99} | ${r.failed} | p99 < ${SEARCH_TARGET_P99_MS} ms: ${verdict(r.p99 < SEARCH_TARGET_P99_MS && r.failed === 0)} |`,
    ),
    '',
    'An organization search counts spaces (here every space matches but the rare word) and lists each of the',
    `${search.limit} best with its 5 best pages; a space search counts pages. What limits these: bench/NOTES.md.`,
    '',
  ];
}

/** BENCH_ONLY=search: runs bench/search.js and puts its section in place of the Search section of the README. */
function searchOnly() {
  const startedAt = new Date();
  // BENCH_SEARCH_RESULT names a file holding the JSON line of an earlier `node bench/search.js` run to use instead.
  const stored = process.env.BENCH_SEARCH_RESULT;
  const search = stored
    ? JSON.parse(readFileSync(stored, 'utf8').trim().split('\n').pop())
    : measureScript('search.js');
  const file = join(__dirname, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const section = ['## Search', '', ...searchLines(search, startedAt)].join('\n');
  const tail = 'What limits the missed targets, and what was tried: bench/NOTES.md.';
  const start = readme.indexOf('## Search\n');
  let next;
  if (start >= 0) {
    const after = readme.indexOf('\n## ', start + 1);
    next = readme.slice(0, start) + section + (after >= 0 ? readme.slice(after) : `\n${tail}\n`);
  } else {
    const at = readme.lastIndexOf(tail);
    next = at >= 0 ? `${readme.slice(0, at)}${section}\n${readme.slice(at)}` : `${readme.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, next.trimEnd() + '\n');
  console.log(section);
}

/** The review section: authoring and merging (bench/merge.js), comments (bench/comments.js). */
function reviewLines(merge, comments) {
  if (!merge || !comments) return ['Skipped in this run (BENCH_SKIP_REVIEW=1).', ''];
  const list = comments.list100of10000;
  return [
    'In process over real HTTP on the embedded backends (one request at a time, so latencies, not throughput).',
    '',
    '| measure | result | target |',
    '|---|---|---|',
    `| content batch of 10 new pages (\`POST .../content\`) into a change request growing to ${merge.merge.spacePages.toLocaleString('en')} pages | median ${merge.authoring.medianMs} ms, p99 ${merge.authoring.p99Ms} ms over ${merge.authoring.batches} batches | none set |`,
    `| merging a change request that changed ${merge.merge.changedPages} pages into a space of ${merge.merge.spacePages.toLocaleString('en')} pages whose content moved on meanwhile (a clean three-way merge) | ${merge.merge.ms} ms, one run | under 500 ms: ${verdict(merge.merge.met)} |`,
    `| posting a comment (\`POST /spaces/{id}/comments\`, answered once its read models are up to date) | median ${comments.post.medianMs} ms, p99 ${comments.post.p99Ms} ms over ${comments.post.requests} requests | none set |`,
    `| listing 100 of ${comments.seed.comments.toLocaleString('en')} comments of one space, newest first (${list.bytes} B) | median ${list.medianMs} ms, p99 ${list.p99Ms} ms over ${list.requests} requests | p99 < 25 ms: ${verdict(list.met)} |`,
    `| the same list filtered by author and status | median ${comments.list100ByAuthorOpen.medianMs} ms, p99 ${comments.list100ByAuthorOpen.p99Ms} ms | |`,
    `| raw node:http answering the same list body, same run | median ${comments.rawNodeHttpSameBody.medianMs} ms, p99 ${comments.rawNodeHttpSameBody.p99Ms} ms | the list takes ${(1 / comments.listVsRawMedian).toFixed(1)}× its median |`,
    '',
    'A content batch records a whole revision of the change request (the page tree with every body), so its cost grows',
    'with the size of the space; the merge compares page bodies as strings first and runs diff3 only on pages changed on',
    `both sides. The ${comments.seed.comments.toLocaleString('en')} comments are appended through the comment decider and projected before the measures`,
    `(${comments.seed.ms} ms). \`GET\` of a change request under load is a row of the HTTP table above.`,
    '',
  ];
}

/** The subscribers section: fan-out of one organization's feed to SSE subscribers (bench/feed.js). */
function feedLines(feed) {
  if (!feed) return ['Skipped in this run (BENCH_SKIP_FEED=1).', ''];
  return [
    `${feed.subscribers} Server-Sent Events subscribers of one organization's feed (in a child process), while ${feed.events.toLocaleString('en')} title`,
    `changes of one space are appended at ${feed.appendRate} per second (bench/feed.js): each subscriber measures the delay from`,
    'just before the append to the moment it parsed the event.',
    '',
    '| delivered | events/s delivered | delay p50 | p90 | p99 (max) | target |',
    '|---|---|---|---|---|---|',
    `| ${feed.delivered.toLocaleString('en')} | ${feed.deliveredPerSecond} | ${feed.delayMs.p50} ms | ${feed.delayMs.p90} ms | **${feed.delayMs.p99} ms** (${feed.delayMs.max}) | p99 < 100 ms: ${verdict(feed.met)} |`,
    '',
  ];
}

async function main() {
  const startedAt = new Date();
  console.error('service and baselines…');
  const service = await measureService();
  let stores = null;
  if (SKIP_STORES) console.error('event store and replay: skipped (BENCH_SKIP_STORES=1)');
  else {
    console.error('event store and replay…');
    stores = measureStores();
  }
  let merge = null;
  let comments = null;
  if (process.env.BENCH_SKIP_REVIEW === '1') console.error('review: skipped (BENCH_SKIP_REVIEW=1)');
  else {
    console.error('review: authoring, merging and comments…');
    merge = measureScript('merge.js');
    comments = measureScript('comments.js');
  }
  let webhooks = null;
  if (process.env.BENCH_SKIP_WEBHOOKS === '1') console.error('webhooks: skipped (BENCH_SKIP_WEBHOOKS=1)');
  else {
    console.error('webhooks: delivery throughput…');
    webhooks = measureScript('webhooks.js');
  }
  let search = null;
  if (process.env.BENCH_SKIP_SEARCH === '1') console.error('search: skipped (BENCH_SKIP_SEARCH=1)');
  else {
    console.error('search: 100,000 pages…');
    search = measureScript('search.js');
  }
  let feed = null;
  if (process.env.BENCH_SKIP_FEED === '1') console.error('feed: skipped (BENCH_SKIP_FEED=1)');
  else {
    console.error('feed: fan-out to SSE subscribers…');
    feed = measureScript('feed.js');
  }

  const readTarget = (r) => `≥ 40%, p99 < 10 ms: ${verdict(r.ratio.median >= 0.4 && r.p99 < 10)}`;
  const writeTarget = (r) => `≥ 8%, p99 < 50 ms: ${verdict(r.ratio.median >= 0.08 && r.p99 < 50)}`;
  const rows = [
    [service.get, readTarget(service.get)],
    [service.patch, writeTarget(service.patch)],
    [service.spaceGet, readTarget(service.spaceGet)],
    [service.spaceList, `p99 < 25 ms: ${verdict(service.spaceList.p99 < 25)}`],
    [service.spacePatch, writeTarget(service.spacePatch)],
    [service.changeRequestGet, readTarget(service.changeRequestGet)],
    [service.siteGet, readTarget(service.siteGet)],
    [service.customFieldsGet, readTarget(service.customFieldsGet)],
  ];
  const pctOf = (ratio) => `${(100 * ratio).toFixed(1)}%`;
  const storeLines = stores
    ? [
        '| measure | result | target |',
        '|---|---|---|',
        `| appends, one event per append (one command): median (min–max) of ${stores.appendsSingleSpread.count} rounds | ${stores.appendsSingle} events/s (${stores.appendsSingleSpread.min}–${stores.appendsSingleSpread.max}) | ≥ 15,000: ${verdict(stores.appendsSingle >= 15000)} |`,
        `| the same transaction in better-sqlite3 alone, same rounds (the baseline) | ${stores.appendsSingleRaw.median} events/s (${stores.appendsSingleRaw.min}–${stores.appendsSingleRaw.max}); the port reaches ${pctOf(stores.appendsSingleOfRaw.median)} of it (${pctOf(stores.appendsSingleOfRaw.min)}–${pctOf(stores.appendsSingleOfRaw.max)}) | |`,
        `| appends, 10 events per append | ${stores.appendsBatched} events/s | |`,
        `| appends, one event per append, to the streams of a store already holding ${stores.replayEvents.toLocaleString('en')} events: median (min–max) of ${stores.grownAppends.count} rounds | ${stores.grownAppends.median} events/s (${stores.grownAppends.min}–${stores.grownAppends.max}) | |`,
        `| the same, with random event ids (version 4 UUIDs, as the service made them before) into a store grown with random ids, same rounds | ${stores.grownAppendsRandomIds.median} events/s (${stores.grownAppendsRandomIds.min}–${stores.grownAppendsRandomIds.max}) | |`,
        `| projection replay of ${stores.replayEvents.toLocaleString('en')} events into ${stores.replayDocs.toLocaleString('en')} documents: median (min–max) of ${stores.replaySpread.count} replays | ${stores.replayRate} events/s (${stores.replaySpread.min}–${stores.replaySpread.max}; ${stores.replaySeconds} s) | ≥ 100,000: ${verdict(stores.replayRate >= 100000)} |`,
        `| the same replays with every page read on the event loop (no read-ahead worker), same rounds | ${stores.replayWithoutReadAhead.median} events/s (${stores.replayWithoutReadAhead.min}–${stores.replayWithoutReadAhead.max}) | |`,
        `| read the whole global order (1000-event pages) | ${stores.readAllRate} events/s | |`,
        '',
        ...(stores.notes ? [`Notes: ${stores.notes}`, ''] : []),
      ]
    : ['Skipped in this run (BENCH_SKIP_STORES=1).', ''];
  const { seed } = service;
  const cpu = cpus();
  const lines = [
    '# Benchmarks',
    '',
    'Produced by `npm run bench` (bench/run.js); this file is overwritten by every run. Client (autocannon) and',
    'server share the machine, so only ratios against the baseline measured in the same run mean anything.',
    '',
    `- run: ${startedAt.toISOString()}, ${SECONDS} s per load test, ${CONNECTIONS} connections`,
    `- machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`,
    '- backends: embedded SQLite event store and read store (the `npm start` default), rate limiting off',
    '',
    '## HTTP',
    '',
    `Each route against its own baseline (a raw node:http server in its own process answering the same body),`,
    `${ROUNDS} alternating rounds; req/s and latencies are medians over the rounds, the ratio is given as`,
    'median (min–max). Targets are judged on the median ratio and the median p99.',
    '',
    '| route | body | baseline req/s | service req/s | of baseline: median (min–max) | p50 ms | p99 ms (max) | baseline p99 ms | target |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ([r, target]) =>
        `| ${r.name} | ${r.bodyBytes} B | ${r.baseRps} | ${r.rps} | **${pctOf(r.ratio.median)}** (${pctOf(r.ratio.min)}–${pctOf(r.ratio.max)}) | ${r.p50} | ${r.p99} (${r.p99Max}) | ${r.baseP99} | ${target} |`,
    ),
    '',
    'The baseline p99 is the raw server’s own, under the same 50 connections with autocannon on the same two',
    'cores: the latency floor of this machine for that body.',
    '',
    'The framework ceiling of a GET, measured in the same rounds: Nest on Fastify with the global validation pipe,',
    'guard, query bus and parameter decorators the service uses, answering the same body from a constant',
    '(bench/framework-ceiling-server.js):',
    '',
    ...rows
      .filter(([r]) => r.framework)
      .map(
        ([r]) =>
          `- ${r.name}: ${pctOf(r.framework.median)} of the raw baseline (${pctOf(r.framework.min)}–${pctOf(r.framework.max)}), p99 ${r.frameworkP99} ms; the service reaches ${pctOf(r.ratio.median / r.framework.median)} of that ceiling`,
      ),
    '',
    'CPU time per answer of each server process (user + system, from /proc; median over the rounds): what the',
    "service spends beyond the ceiling is its own code and the framework features it uses beyond the ceiling's.",
    '',
    ...rows.map(
      ([r]) =>
        `- ${r.name}: baseline ${r.cpu.base} µs${r.cpu.framework === null ? '' : `, framework ceiling ${r.cpu.framework} µs`}, service ${r.cpu.service} µs`,
    ),
    '',
    'Per round (baseline req/s → service req/s, service p99):',
    '',
    ...rows.map(
      ([r]) =>
        `- ${r.name}: ${r.rounds.map((x) => `${x.base.rps} → ${x.service.rps} (${pctOf(x.ratio)}, p99 ${x.service.p99} ms)`).join('; ')}`,
    ),
    '',
    `Service RSS after the GET run: **${service.rssAfterGet} MB** (target < 200 MB: ${verdict(service.rssAfterGet < 200)});`,
    `after all the runs above, with ${SPACES.toLocaleString('en')} spaces loaded: ${service.rssAtEnd} MB.`,
    '',
    'The space rows run in the same service process, after the organization rows. Before them the organization',
    `is seeded with ${SPACES.toLocaleString('en')} spaces by bench/seed-spaces.js: a child process opens the service's DATA_DIR`,
    "stores and calls the domain's `createSpace` (a `CreateRevision` and a `CreateSpace` command, each decided and",
    `appended by \`handleCommand\`; ${seed.events.toLocaleString('en')} events) for each space, with sort keys 0, 1, 2, … passed in instead of read`,
    `from the read model. Appending took ${seed.seconds} s; the service (polling for other processes' appends)`,
    `listed all ${SPACES.toLocaleString('en')} after ${seed.visibleSeconds} s from the start of the seeding. The list run is checked to return ${LIST_LIMIT} items`,
    `(count ${SPACES.toLocaleString('en')}) first; GET and PATCH use one of the seeded spaces; PATCH sets a new 39-character title per`,
    'request (autocannon `idReplacement`), checked after the run.',
    '',
    '## Docs sites',
    '',
    `A site of ${SITE_SECTIONS} sections holding ${SITE_SPACES} site spaces, built over HTTP from the seeded spaces in`,
    `${service.published.buildSeconds} s (one request per section and site space). \`GET\` of the site is a row of the HTTP table above.`,
    `Its published view (${Math.round(service.published.bodyBytes / 1024)} KiB: every section with its site spaces, each with its space),`,
    `one request at a time for ${SECONDS} s: ${service.published.rps} req/s, p50 ${service.published.p50} ms, p99 **${service.published.p99} ms**`,
    `(target < 50 ms, warm: ${verdict(service.published.p99 < 50)}).`,
    '',
    '## Extensibility',
    '',
    `\`GET\` of a space's custom fields (${CUSTOM_FIELDS} fields, each with a value on the space) is a row of the HTTP table above.`,
    `An OpenAPI 3.0 document of ${(service.openApiProcessing.bytes / 2 ** 20).toFixed(1)} MiB, given by URL (served on loopback): from the \`PUT\` to`,
    `\`processingState: complete\` (fetched, parsed, validated in the worker thread, stored as a version) in`,
    `**${service.openApiProcessing.seconds} s**; the service's RSS went from ${service.openApiProcessing.rssBefore} MB to a peak of ${service.openApiProcessing.rssPeak} MB meanwhile`,
    '(sampled every 20 ms).',
    '',
    '## Hostile clients',
    '',
    `\`GET /health\`, one request at a time for ${SECONDS} s, in the same service process, quiet and while a hostile client`,
    '(bench/hostile-client.js, its own process) attacks:',
    '',
    '| while | req/s | p50 ms | p99 ms | target |',
    '|---|---|---|---|---|',
    `| nothing | ${service.hostile.quiet.rps} | ${service.hostile.quiet.p50} | ${service.hostile.quiet.p99} | |`,
    `| one client sends an 80,000-key body (870 KB) in a loop (${service.hostile.underKeys.attack}) | ${service.hostile.underKeys.rps} | ${service.hostile.underKeys.p50} | ${service.hostile.underKeys.p99} | p99 < 50 ms: ${verdict(service.hostile.underKeys.p99 < 50)} |`,
    `| ${SLOW_CONNECTIONS} connections hold unfinished bodies (${service.hostile.underSlow.attack}) | ${service.hostile.underSlow.rps} | ${service.hostile.underSlow.p50} | ${service.hostile.underSlow.p99} | served, p99 < 100 ms: ${verdict(service.hostile.underSlow.p99 < 100)} |`,
    '',
    '## Event store and projections (SQLite)',
    '',
    ...storeLines,
    '## Review: authoring, merging and comments',
    '',
    ...reviewLines(merge, comments),
    '## Webhooks',
    '',
    ...webhookLines(webhooks),
    '## Search',
    '',
    ...searchLines(search, startedAt),
    '## Subscribers: the event feed',
    '',
    ...feedLines(feed),
    'What limits the missed targets, and what was tried: bench/NOTES.md.',
  ];
  writeFileSync(join(__dirname, 'README.md'), lines.join('\n').trimEnd() + '\n');
  console.log(lines.join('\n'));
}

if (require.main === module) {
  (process.env.BENCH_ONLY === 'search' ? Promise.resolve().then(searchOnly) : main()).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

// bench/rows.js and bench/search.js measure with the same helpers
module.exports = {
  cpuOf,
  rssOf,
  serviceCommand,
  startProcess,
  stopProcess,
  startBaseline,
  load,
  measureRoute,
  getText,
  getJson,
  seedSpaces,
  measureSites,
  measureExtensibility,
  measureChangeRequest,
  serveOpenApiDocument,
};
