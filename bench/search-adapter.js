'use strict';
/**
 * The SQLite search index alone, in this process, on the corpus of bench/search-corpus.js: what one query costs
 * in CPU without HTTP, queueing or the service around it (bench/search.js measures those). A quicker loop than
 * bench/search.js, and steadier on a shared host, since CPU time per query hardly depends on the other jobs.
 *
 * Run `npm run build` first, then `node bench/search-adapter.js`. Settings (environment):
 * - BENCH_SEARCH_PAGES (default 100,000) pages in spaces of BENCH_SEARCH_SPACE_PAGES (default 1,000), every page
 *   of a space changed at the same time (one revision), as bench/search.js seeds them;
 * - BENCH_INDEX_FILE: where the index is kept (default under the temporary directory, named by the file format
 *   and the page count); an existing file is reused, so that only the first run pays the indexing;
 * - BENCH_REPEAT (default 200) searches per query and scope, after 5 to warm up, with the adapter's answer cache
 *   off (what a query costs), then as many asked again with it on (what a request made again costs);
 * - BENCH_ANSWERS: a file to write every answer to (pages and spaces found, in order, and totals), to compare two
 *   versions of the code;
 * - BENCH_TIDY=0: the index is left as the writes left it (by default it merges its FTS5 segments into one once
 *   they pause, as the service does after a replay);
 * - BENCH_OPTIMIZE=1: merges the FTS5 index into one segment first (FTS5's `optimize`, on the file directly), to
 *   see what the number of segments costs.
 */
const { existsSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { adapterQueries, corpusPage } = require('./search-corpus');

const ROOT = join(__dirname, '..');
const { SqliteSearchIndex, SEARCH_FORMAT } = require(join(ROOT, 'dist/libs/search-index/src'));
const { sectionsOf } = require(join(ROOT, 'dist/libs/content/src/projections/search-pages'));

const PAGES = Number(process.env.BENCH_SEARCH_PAGES ?? 100_000);
const PER_SPACE = Number(process.env.BENCH_SEARCH_SPACE_PAGES ?? 1000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 200);
const SPACES = Math.ceil(PAGES / PER_SPACE);
const MEASURED = Math.floor(SPACES / 2);
const FILE = process.env.BENCH_INDEX_FILE ?? join(tmpdir(), `quire-search-adapter-f${SEARCH_FORMAT}-${PAGES}.db`);
const INDEX = 'pages';
const spaceId = (s) => `space-${String(s).padStart(4, '0')}`;

const QUERIES = adapterQueries(MEASURED * PER_SPACE + 7);

async function fill(index) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let s = 0; s < SPACES; s++) {
    const changedAt = new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
    const ops = [];
    for (let n = s * PER_SPACE; n < Math.min(PAGES, (s + 1) * PER_SPACE); n++) {
      const page = corpusPage(n);
      const id = `page-${n}`;
      ops.push({
        kind: 'putPage',
        spaceId: spaceId(s),
        page: {
          id,
          title: page.title,
          path: id,
          sections: sectionsOf(page.markdown, page.title),
          changedAt,
          digest: id,
        },
      });
    }
    await index.write(INDEX, ops);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

async function main() {
  const fresh = !existsSync(FILE);
  // answers found each time (the cost of a query), and answers kept for a request made again (a search box)
  const tidy = process.env.BENCH_TIDY === '0' ? { tidyAfterPages: 0 } : {};
  const index = new SqliteSearchIndex({ file: FILE, cachedAnswers: 0, ...tidy });
  const cached = new SqliteSearchIndex({ file: FILE, ...tidy });
  await index.ensureIndex(INDEX);
  if (fresh) {
    const filled = await fill(index);
    console.log(
      `indexed ${PAGES} pages in ${filled.seconds.toFixed(1)} s (${Math.round(PAGES / filled.seconds)} pages/s, ` +
        `${filled.cpuSeconds.toFixed(1)} s of CPU) into ${FILE}`,
    );
    // the index merges its segments once writes pause (unless BENCH_TIDY=0): timed from the last write
    const merging = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const alive = setInterval(() => undefined, 1000); // the merge's timers do not keep a process alive
    const slices = await index.settled();
    clearInterval(alive);
    const used = process.cpuUsage(cpu);
    console.log(
      `segments merged in ${(Number(process.hrtime.bigint() - merging) / 1e9).toFixed(1)} s (${slices} slices, ` +
        `${((used.user + used.system) / 1e6).toFixed(1)} s of CPU)`,
    );
    // searches measured in a fresh process: not in the heap the indexing left behind
    await index.close();
    require('node:child_process').execFileSync(process.execPath, [__filename], { stdio: 'inherit' });
    return;
  } else console.log(`reusing ${FILE}`);
  if (process.env.BENCH_OPTIMIZE === '1') {
    const Database = require('better-sqlite3');
    const db = new Database(FILE);
    const started = process.hrtime.bigint();
    for (const name of db.prepare(`SELECT name FROM sqlite_schema WHERE name GLOB 'si[0-9]*_words'`).pluck().all()) {
      db.exec(`INSERT INTO ${name} (${name}) VALUES ('optimize')`);
    }
    db.close();
    console.log(`optimized in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
  }
  const all = Array.from({ length: SPACES }, (_, s) => spaceId(s));
  const answers = [];
  console.log('| query | scope | total | CPU µs/query | median µs | p99 µs | CPU µs/query, asked again |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [kind, text] of QUERIES) {
    for (const scope of ['space', 'organization']) {
      const runOn = (on) =>
        scope === 'space'
          ? on.searchPages(INDEX, { text, spaces: [spaceId(MEASURED)], group: 'page', offset: 0, limit: 10 })
          : on.searchSpaces(INDEX, { text, spaces: all, group: 'space', offset: 0, limit: 10, pagesPerSpace: 5 });
      const run = () => runOn(index);
      let answer;
      for (let i = 0; i < 5; i++) answer = await run();
      const times = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < REPEAT; i++) {
        const t = process.hrtime.bigint();
        await run();
        times.push(Number(process.hrtime.bigint() - t) / 1e3);
      }
      const used = process.cpuUsage(cpu);
      await runOn(cached);
      const cpuCached = process.cpuUsage();
      for (let i = 0; i < REPEAT; i++) await runOn(cached);
      const usedCached = process.cpuUsage(cpuCached);
      times.sort((a, b) => a - b);
      const perQuery = (used.user + used.system) / REPEAT;
      const perQueryCached = (usedCached.user + usedCached.system) / REPEAT;
      const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
      console.log(
        `| ${kind}: \`${text}\` | ${scope} | ${answer.total} | ${Math.round(perQuery)} | ${Math.round(at(0.5))} | ` +
          `${Math.round(at(0.99))} | ${Math.round(perQueryCached)} |`,
      );
      answers.push({ text, scope, answer });
    }
  }
  if (process.env.BENCH_ANSWERS) writeFileSync(process.env.BENCH_ANSWERS, JSON.stringify(answers, null, 1));
  await index.close();
  await cached.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
