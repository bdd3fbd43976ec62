'use strict';
/**
 * Organization searches asked for the first time, on an index file bench/search-adapter.js filled (100 spaces of
 * 1,000 pages by default): the SQLite adapter alone, answers not kept, CPU time per query over a few runs. Shorter
 * than bench/search-adapter.js (organization scope only), to compare two index files (merged or not) or two builds
 * on one file (ROOT names the other build's checkout; both must read the file's format, or it is emptied).
 *
 * Usage: node bench/search-first.js <index file> [runs per query (default 10)]
 * Environment: ROOT (default this checkout), ONLY=<kind,kind> (e.g. "common word,phrase"), BENCH_SEARCH_PAGES and
 * BENCH_SEARCH_SPACE_PAGES as the file was filled with.
 */
const { join } = require('node:path');
const { adapterQueries } = require('./search-corpus');

const ROOT = process.env.ROOT ?? join(__dirname, '..');
const { SqliteSearchIndex } = require(join(ROOT, 'dist/libs/search-index/src'));

const FILE = process.argv[2];
const RUNS = Number(process.argv[3] ?? 10);
const PAGES = Number(process.env.BENCH_SEARCH_PAGES ?? 100_000);
const PER_SPACE = Number(process.env.BENCH_SEARCH_SPACE_PAGES ?? 1000);
const SPACES = Math.ceil(PAGES / PER_SPACE);
const ONLY = process.env.ONLY?.split(',');
const spaceId = (s) => `space-${String(s).padStart(4, '0')}`;
const spaces = Array.from({ length: SPACES }, (_, s) => spaceId(s));

const QUERIES = adapterQueries(Math.floor(SPACES / 2) * PER_SPACE + 7);

async function main() {
  if (!FILE) throw new Error('usage: node bench/search-first.js <index file> [runs]');
  const index = new SqliteSearchIndex({ file: FILE, cachedAnswers: 0, tidyAfterPages: 0 });
  console.log('| query | total | CPU ms/query |');
  console.log('|---|---|---|');
  for (const [kind, text] of QUERIES) {
    if (ONLY && !ONLY.includes(kind)) continue;
    const run = () =>
      index.searchSpaces('pages', { text, spaces, group: 'space', offset: 0, limit: 10, pagesPerSpace: 5 });
    await run(); // statements prepared, pages cached by the OS
    const cpu = process.cpuUsage();
    let answer;
    for (let i = 0; i < RUNS; i++) answer = await run();
    const used = process.cpuUsage(cpu);
    console.log(`| ${kind}: \`${text}\` | ${answer.total} | ${((used.user + used.system) / RUNS / 1000).toFixed(2)} |`);
  }
  await index.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
