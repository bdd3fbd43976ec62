'use strict';
/**
 * Search benchmark on the built code (dist/), printed as one JSON line (bench/run.js puts it in bench/README.md).
 *
 * 1. A fresh DATA_DIR; a user and organization bootstrapped through the CLI.
 * 2. BENCH_SEARCH_PAGES pages (default 100,000, about 100 MB of markdown from bench/search-corpus.js, a
 *    deterministic generator) written straight into the event store, without the service running: spaces of
 *    BENCH_SEARCH_SPACE_PAGES pages (default 1,000) each created by the domain's `createSpace` with its pages in
 *    its first revision (a `CreateRevision` and a `CreateSpace` command, decided and appended by `handleCommand`,
 *    as POST /v1/orgs/{id}/spaces would after its access check; going through HTTP would take far longer).
 * 3. The service started on that DATA_DIR: its search projection finds no checkpoint and replays every event
 *    from the store into a new index (the same path as `projections rebuild search-index`). Indexing throughput
 *    is pages / (time from the start of the service until a search answers, a search waiting for the index to
 *    have caught up with the event store, polled every 250 ms).
 * 4. Search over HTTP at 10 connections, each query on a space (its 1,000 pages) and on the organization (all
 *    spaces, every page), `limit=10`, against a raw node:http server in its own process answering the same body
 *    (bench/baseline-server.js), in the same run. The same request sent again is answered from the answers the
 *    index keeps until it changes, so requests one at a time are also timed each asked for the first time.
 *
 * Run with `npm run build && node bench/search.js` (or `BENCH_ONLY=search npm run bench` to put it in the README).
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus, totalmem, loadavg } = require('node:os');
const { join } = require('node:path');
const { serviceCommand, startBaseline, stopProcess, startProcess, load: loadAt } = require('./run');
const { corpusPage, rarestWordOf } = require('./search-corpus');

const ROOT = join(__dirname, '..');
const PAGES = Number(process.env.BENCH_SEARCH_PAGES ?? 100_000);
const PER_SPACE = Number(process.env.BENCH_SEARCH_SPACE_PAGES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const LIMIT = 10;

const SPACES = Math.ceil(PAGES / PER_SPACE);
/** The space searched alone: the one in the middle. */
const MEASURED = Math.floor(SPACES / 2);

/** The mix: what each query stands for, and its text as typed (a last word of 4+ letters is also a prefix). */
const QUERIES = [
  ['rare word', rarestWordOf(MEASURED * PER_SPACE + 7)],
  ['common word', 'the'],
  ['two words', 'server configuration'],
  ['phrase', '"of the"'],
  ['prefix', 'conf'],
];

/** autocannon at this bench's connection count (the shared helper defaults to the HTTP rows' 50). */
const load = (options) => loadAt({ connections: CONNECTIONS, duration: SECONDS, ...options });

/** Appends the corpus as spaces of PER_SPACE pages, from this process, while no service runs. */
async function seed(dataDir, organizationId, userId) {
  require('reflect-metadata');
  const { createEventStore } = require('../dist/libs/event-store/src');
  const { createReadStore } = require('../dist/libs/read-store/src');
  const { metadataFor, newId, systemClock } = require('../dist/libs/kernel/src');
  const { createSpace } = require('../dist/libs/content/src/application/create-space/create-space.command');
  const { loadConfig } = require('../dist/apps/api/src/config');
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const events = await createEventStore(config.eventStore);
  const reads = await createReadStore(config.readStore);
  let bytes = 0;
  const spaces = [];
  const started = process.hrtime.bigint();
  try {
    for (let s = 0; s * PER_SPACE < PAGES; s++) {
      const pages = [];
      for (let p = s * PER_SPACE; p < Math.min(PAGES, (s + 1) * PER_SPACE); p++) {
        const page = corpusPage(p);
        bytes += Buffer.byteLength(page.markdown);
        pages.push({ id: newId(), title: page.title, markdown: page.markdown });
      }
      const created = await createSpace(events, reads, metadataFor(systemClock, userId), {
        organizationId,
        title: `Search bench ${s + 1}`,
        parent: null,
        sortKey: s,
        pages,
      });
      spaces.push(created.spaceId);
    }
  } finally {
    await reads.close();
    await events.close();
  }
  return { spaces, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/**
 * Waits until the service has merged the index's segments after the replay (it does so in slices once writes
 * pause: see `tidy` in sqlite-search-index.ts), so that the searches measured read the merged index and do not
 * share the cores with the merge; answers the seconds waited. Read from the index file, which lists the indexes
 * whose pages written since their last merge are waiting for one.
 */
async function merged(file) {
  const Database = require('better-sqlite3');
  const started = process.hrtime.bigint();
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    for (;;) {
      const waiting = db.prepare('SELECT count(*) FROM search_unmerged WHERE pages >= 10000').pluck().get();
      if (waiting === 0) break;
      if (Number(process.hrtime.bigint() - started) / 1e9 > 1800) throw new Error('not merged after 30 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    db.close();
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main() {
  const runAt = new Date().toISOString();
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-search-'));
  const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false' };
  let service;
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
    console.error(`search: seeding ${PAGES} pages…`);
    const seeded = await seed(dataDir, organizationId, userId);
    console.error(`search: seeded ${(seeded.bytes / 1e6).toFixed(1)} MB in ${seeded.seconds.toFixed(1)} s; replaying…`);

    const started = process.hrtime.bigint();
    service = await startProcess('node', serviceCommand(), env, (out) => /listening on http:\/\/[^:]+:(\d+)/.exec(out));
    const url = `http://127.0.0.1:${service.match[1]}`;
    const space = seeded.spaces[MEASURED];
    const spaceSearch = (text) => `/v1/spaces/${space}/search?limit=${LIMIT}&query=${encodeURIComponent(text)}`;
    const orgSearch = (text) => `/v1/orgs/${organizationId}/search?limit=${LIMIT}&query=${encodeURIComponent(text)}`;
    for (;;) {
      const response = await fetch(`${url}${orgSearch('the')}`, { headers });
      const body = await response.text();
      if (response.status === 200 && JSON.parse(body).count === seeded.spaces.length) break;
      if (Number(process.hrtime.bigint() - started) / 1e9 > 3600) throw new Error(`not indexed after an hour: ${body}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const indexSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.error(`search: indexed in ${indexSeconds.toFixed(1)} s`);
    const mergeSeconds = await merged(join(dataDir, 'search.sqlite'));
    console.error(`search: segments merged ${mergeSeconds.toFixed(1)} s after that`);

    const rows = [];
    for (const [kind, text] of QUERIES) {
      for (const [scope, pathFor] of [
        [`space (${PER_SPACE.toLocaleString('en')} pages)`, spaceSearch],
        [`organization (${PAGES.toLocaleString('en')} pages)`, orgSearch],
      ]) {
        const path = pathFor(text);
        const sample = await fetch(`${url}${path}`, { headers });
        const body = await sample.text();
        if (sample.status !== 200) throw new Error(`GET ${path} answered ${sample.status}: ${body}`);
        const { count, items } = JSON.parse(body);
        // one request alone, warm: the latency of the search itself, without queueing
        const alone = [];
        for (let i = 0; i < 20; i++) {
          const t = process.hrtime.bigint();
          await (await fetch(`${url}${path}`, { headers })).text();
          alone.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        alone.sort((a, b) => a - b);
        // the same alone, each request asked for the first time (the index keeps answers to requests made again):
        // the query text after a different run of punctuation each time, which finds the same pages
        const firstTime = [];
        for (let i = 0; i < 20; i++) {
          const t = process.hrtime.bigint();
          await (await fetch(`${url}${pathFor(`${'-'.repeat(i + 1)} ${text}`)}`, { headers })).text();
          firstTime.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        firstTime.sort((a, b) => a - b);
        const baseline = await startBaseline(body);
        try {
          await load({ url: `${baseline.url}${path}`, headers, duration: 1 });
          await load({ url: `${url}${path}`, headers, duration: 1 });
          const base = await load({ url: `${baseline.url}${path}`, headers });
          const served = await load({ url: `${url}${path}`, headers });
          // Failures are counted, not fatal: on a loaded machine a request can outlast autocannon's 10 s timeout.
          const failed = served.non2xx + served.errors + served.timeouts;
          rows.push({
            kind,
            text,
            scope,
            count,
            items: items.length,
            bytes: Buffer.byteLength(body),
            aloneMedianMs: +alone[10].toFixed(2),
            firstTimeMedianMs: +firstTime[10].toFixed(2),
            baseRps: Math.round(base.requests.average),
            rps: Math.round(served.requests.average),
            ratio: served.requests.average / base.requests.average,
            p50: served.latency.p50,
            p99: served.latency.p99,
            failed,
            statusCodes: served.statusCodeStats,
          });
          console.error(`search: ${kind} on ${scope}: p99 ${served.latency.p99} ms`);
        } finally {
          await baseline.stop();
        }
      }
    }
    const cpu = cpus();
    console.log(
      JSON.stringify({
        runAt,
        machine: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}`,
        loadAverage: loadavg().map((x) => +x.toFixed(1)),
        pages: PAGES,
        perSpace: PER_SPACE,
        spaces: seeded.spaces.length,
        markdownMB: +(seeded.bytes / 1e6).toFixed(1),
        seedSeconds: +seeded.seconds.toFixed(1),
        indexSeconds: +indexSeconds.toFixed(1),
        pagesPerSecond: Math.round(PAGES / indexSeconds),
        mergeSeconds: +mergeSeconds.toFixed(1),
        seconds: SECONDS,
        connections: CONNECTIONS,
        limit: LIMIT,
        rows,
      }),
    );
  } finally {
    if (service) await stopProcess(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { seed, merged, QUERIES, PAGES, PER_SPACE, SPACES, MEASURED, LIMIT, CONNECTIONS };
