'use strict';
/**
 * Search over HTTP, two builds side by side on the same data: this checkout's dist/ ("after") and another
 * checkout's ("before", BENCH_SEARCH_BEFORE=<its root>, built, with node_modules), both services running on one
 * DATA_DIR at once. For each query of bench/search.js, rounds of load at 10 connections alternate between the two
 * (the order swapped every round), so that a busy moment of a shared host falls on both; each run reports the
 * service's CPU time per answer (from /proc: steadier than req/s or latency there), req/s and p99. Then the CPU
 * time of requests each asked for the first time (the query after a different run of punctuation), one at a time.
 *
 * The corpus is bench/search.js's (BENCH_SEARCH_PAGES, BENCH_SEARCH_SPACE_PAGES). BENCH_SEARCH_DATA=<dir> keeps the
 * data (seeded and indexed once) in that directory for the next run. Both builds must read the same index format
 * (otherwise the second to start rebuilds the index under the first). This build merges the index's segments once
 * it is written (after a replay), and the runs wait for that: both builds then read the merged index.
 *
 * Usage: npm run build && BENCH_SEARCH_BEFORE=../other node bench/search-paired.js
 * Environment: BENCH_SECONDS (default 5) per run, BENCH_ROUNDS (default 3), BENCH_SCOPES=org|space|both (org).
 */
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir, loadavg } = require('node:os');
const { join, resolve } = require('node:path');
const { stopProcess, startProcess, load } = require('./run');
const search = require('./search');

const ROOT = join(__dirname, '..');
const BEFORE = process.env.BENCH_SEARCH_BEFORE && resolve(process.env.BENCH_SEARCH_BEFORE);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCOPES = process.env.BENCH_SCOPES ?? 'org';
const FIRST_TIMES = 10;

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
/** CPU time (user + system) a process has used, in microseconds. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** The data directory, seeded once: what the runs need to know of it is kept beside it. */
async function prepare() {
  const kept = process.env.BENCH_SEARCH_DATA && resolve(process.env.BENCH_SEARCH_DATA);
  const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'quire-bench-search-paired-'));
  const about = join(dataDir, 'bench-search.json');
  if (existsSync(about)) return { dataDir, kept, ...JSON.parse(readFileSync(about, 'utf8')) };
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const line = execFileSync(
    'node',
    ['dist/apps/cli/src/main.js', 'bootstrap', '--email', 'bench@example.com', '--org', 'Bench', '--json'],
    { cwd: ROOT, env, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .pop();
  const { token, organizationId, userId } = JSON.parse(line);
  console.error(`paired: seeding ${search.PAGES} pages…`);
  const { spaces } = await search.seed(dataDir, organizationId, userId);
  const facts = { token, organizationId, spaces };
  writeFileSync(about, JSON.stringify(facts));
  return { dataDir, kept, ...facts };
}

async function start(root, dataDir, headers, organizationId, spaces) {
  const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false' };
  const service = await startProcess('node', [join(root, 'dist/apps/api/src/main.js')], env, (out) =>
    /listening on http:\/\/[^:]+:(\d+)/.exec(out),
  );
  const url = `http://127.0.0.1:${service.match[1]}`;
  const started = Date.now();
  for (;;) {
    const response = await fetch(`${url}/v1/orgs/${organizationId}/search?limit=1&query=the`, { headers });
    const body = await response.text();
    if (response.status === 200 && JSON.parse(body).count === spaces) break;
    if (Date.now() - started > 3_600_000) throw new Error(`not indexed after an hour: ${body}`);
    await new Promise((done) => setTimeout(done, 500));
  }
  console.error(`paired: ${root} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { ...service, url };
}

async function main() {
  if (!BEFORE) throw new Error('BENCH_SEARCH_BEFORE=<root of the other build> is required');
  const data = await prepare();
  const headers = { authorization: `Bearer ${data.token}` };
  const services = {};
  try {
    // this build first: it does any replay the data needs
    services.after = await start(ROOT, data.dataDir, headers, data.organizationId, data.spaces.length);
    // this build merges the index's segments after a replay: both then read the merged index
    console.error(`paired: merged ${(await search.merged(join(data.dataDir, 'search.sqlite'))).toFixed(1)} s after`);
    services.before = await start(BEFORE, data.dataDir, headers, data.organizationId, data.spaces.length);
    const space = data.spaces[Math.floor(data.spaces.length / 2)];
    const paths = {
      org: (text) => `/v1/orgs/${data.organizationId}/search?limit=${search.LIMIT}&query=${encodeURIComponent(text)}`,
      space: (text) => `/v1/spaces/${space}/search?limit=${search.LIMIT}&query=${encodeURIComponent(text)}`,
    };
    const scopes = SCOPES === 'both' ? ['org', 'space'] : [SCOPES];
    const rows = [];
    for (const [kind, text] of search.QUERIES) {
      for (const scope of scopes) {
        const path = paths[scope](text);
        const bodies = {};
        for (const name of ['before', 'after']) {
          const response = await fetch(`${services[name].url}${path}`, { headers });
          bodies[name] = await response.text();
          if (response.status !== 200) throw new Error(`${name} GET ${path}: ${response.status} ${bodies[name]}`);
          await load({ url: `${services[name].url}${path}`, headers, duration: 1, connections: search.CONNECTIONS });
        }
        const runs = { before: [], after: [] };
        for (let round = 0; round < ROUNDS; round++) {
          for (const name of round % 2 === 0 ? ['before', 'after'] : ['after', 'before']) {
            const { child, url } = services[name];
            const cpu = cpuOf(child.pid);
            const result = await load({
              url: `${url}${path}`,
              headers,
              duration: SECONDS,
              connections: search.CONNECTIONS,
            });
            runs[name].push({
              cpuUs: (cpuOf(child.pid) - cpu) / result.requests.total,
              rps: result.requests.average,
              p99: result.latency.p99,
              failed: result.non2xx + result.errors + result.timeouts,
            });
          }
        }
        // requests each asked for the first time, one at a time: CPU per request and median wall time
        const first = {};
        for (const name of ['before', 'after']) {
          const { child, url } = services[name];
          const walls = [];
          const cpu = cpuOf(child.pid);
          for (let i = 0; i < FIRST_TIMES; i++) {
            const t = process.hrtime.bigint();
            const marks = `${'-'.repeat(i + 1)} ${text}`;
            await (await fetch(`${url}${paths[scope](marks)}`, { headers })).text();
            walls.push(Number(process.hrtime.bigint() - t) / 1e6);
          }
          first[name] = { cpuMs: (cpuOf(child.pid) - cpu) / FIRST_TIMES / 1000, wallMs: median(walls) };
        }
        const summary = (name) => ({
          cpuUs: Math.round(median(runs[name].map((run) => run.cpuUs))),
          rps: Math.round(median(runs[name].map((run) => run.rps))),
          p99: median(runs[name].map((run) => run.p99)),
          p99s: runs[name].map((run) => run.p99),
          failed: runs[name].reduce((sum, run) => sum + run.failed, 0),
          firstCpuMs: +first[name].cpuMs.toFixed(2),
          firstWallMs: +first[name].wallMs.toFixed(2),
        });
        const row = {
          kind,
          text,
          scope,
          bytes: Buffer.byteLength(bodies.after),
          sameBody: bodies.before === bodies.after,
          before: summary('before'),
          after: summary('after'),
        };
        rows.push(row);
        console.error(`paired: ${JSON.stringify(row)}`);
      }
    }
    console.log(
      JSON.stringify({
        runAt: new Date().toISOString(),
        loadAverage: loadavg().map((x) => +x.toFixed(1)),
        pages: search.PAGES,
        seconds: SECONDS,
        rounds: ROUNDS,
        rows,
      }),
    );
    console.log(
      '| query | scope | body | before µs CPU/answer | after | before p99 ms (runs) | after | before first-time ms CPU | after |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) {
      console.log(
        `| ${row.kind}: \`${row.text}\` | ${row.scope} | ${row.bytes} B${row.sameBody ? '' : ' (bodies differ)'} | ` +
          `${row.before.cpuUs} | ${row.after.cpuUs} | ${row.before.p99} (${row.before.p99s.join(', ')}) | ` +
          `${row.after.p99} (${row.after.p99s.join(', ')}) | ${row.before.firstCpuMs} | ${row.after.firstCpuMs} |`,
      );
    }
  } finally {
    for (const service of Object.values(services)) await stopProcess(service.child);
    if (!data.kept) rmSync(data.dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
