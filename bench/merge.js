'use strict';
/**
 * Review benchmarks on the built code (dist/), in process, over real HTTP on the embedded backends, printed as one
 * JSON line: writing 10 pages per content batch, and merging a change request that changed 100 pages into a
 * space of 1,000 pages whose content also moved on since the change request was created (a real three-way merge).
 * Run with `npm run build && node bench/merge.js`.
 */
const { cpus } = require('node:os');
const { startInProcess } = require('./in-process');

const PAGES = Number(process.env.BENCH_MERGE_PAGES ?? 1000);
const CHANGED = Number(process.env.BENCH_MERGE_CHANGED ?? 100);
const body = (i) => Array.from({ length: 40 }, (_, line) => `Line ${line} of page ${i}: some words here.`).join('\n');

async function main() {
  const { user, call, close } = await startInProcess('merge');
  try {
    const space = await call('POST', `/v1/orgs/${user.organizationId}/spaces`, { title: 'Bench' });
    const cr = (subject) => call('POST', `/v1/spaces/${space.id}/change-requests`, { subject });
    const write = (id, changes) => call('POST', `/v1/spaces/${space.id}/change-requests/${id}/content`, { changes });

    // seed: 1,000 pages written 10 per batch (the authoring measure), then merged
    const seed = await cr('seed');
    const batchTimes = [];
    for (let i = 0; i < PAGES; i += 10) {
      const changes = Array.from({ length: 10 }, (_, k) => ({
        operation: 'insert_page',
        title: `Page ${i + k}`,
        document: { markdown: body(i + k) },
      }));
      const started = process.hrtime.bigint();
      await write(seed.id, changes);
      batchTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
    const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages;

    // a change request edits the first line of 100 pages; meanwhile another one edits the last line of others
    const proposal = await cr('proposal');
    const other = await cr('other');
    for (let i = 0; i < CHANGED; i += 50) {
      await write(
        proposal.id,
        pages.slice(i, i + 50).map((page, k) => ({
          operation: 'update_page',
          page: page.id,
          document: { markdown: body(i + k).replace(/^Line 0/, 'Edited line 0') },
        })),
      );
    }
    await write(
      other.id,
      pages.slice(0, 50).map((page, k) => ({
        operation: 'update_page',
        page: page.id,
        document: { markdown: body(k).replace(/Line 39/, 'Changed line 39') },
      })),
    );
    await call('POST', `/v1/spaces/${space.id}/change-requests/${other.id}/merge`);
    const started = process.hrtime.bigint();
    const merged = await call('POST', `/v1/spaces/${space.id}/change-requests/${proposal.id}/merge`);
    const mergeMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (merged.result !== 'merge') throw new Error(`expected a clean merge, got ${JSON.stringify(merged)}`);

    batchTimes.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
        authoring: {
          pagesPerBatch: 10,
          batches: batchTimes.length,
          medianMs: +batchTimes[Math.floor(batchTimes.length / 2)].toFixed(1),
          p99Ms: +batchTimes[Math.floor(batchTimes.length * 0.99)].toFixed(1),
          note: 'each batch records a whole revision of the growing space (up to 1,000 pages)',
        },
        merge: { spacePages: PAGES, changedPages: CHANGED, ms: +mergeMs.toFixed(1), targetMs: 500, met: mergeMs < 500 },
      }),
    );
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
