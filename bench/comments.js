'use strict';
/**
 * Comment benchmarks on the built code (dist/), in process, over real HTTP on the embedded backends, printed as one
 * JSON line: posting a comment, and listing 100 of the 10,000 comments of one space (newest first, and filtered
 * by author), next to a raw node:http server answering the same list body on the same machine in the same run.
 * The 10,000 comments are appended through the comment decider (as the endpoint does) and projected before the
 * measures. Run with `npm run build && node bench/comments.js`.
 */
const http = require('node:http');
const { cpus } = require('node:os');
const { handleCommand, newId } = require('../dist/libs/kernel/src');
const { commentThreadDecider, commentThreadStream } = require('../dist/libs/review/src/domain');
const { startInProcess } = require('./in-process');

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_COMMENT_REQUESTS ?? 300);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    medianMs: +percentile(sorted, 0.5).toFixed(2),
    p99Ms: +percentile(sorted, 0.99).toFixed(2),
  };
};

async function timed(count, run) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
}

async function main() {
  const {
    clock,
    events,
    user,
    callText: call,
    runtime,
    close,
  } = await startInProcess('comments', new Date('2026-01-01T00:00:00Z'));
  let raw;
  try {
    const space = JSON.parse(await call('POST', `/v1/orgs/${user.organizationId}/spaces`, { title: 'Bench' }));
    const space2 = JSON.parse(await call('GET', `/v1/spaces/${space.id}`));

    // seed: 10,000 comments by two authors, through the decider, then projected
    const seedStarted = process.hrtime.bigint();
    for (let i = 0; i < COMMENTS; i++) {
      clock.advance(1000);
      const commentId = newId();
      await handleCommand(events, commentThreadDecider, commentThreadStream(commentId), {
        type: 'PostComment',
        data: {
          spaceId: space.id,
          commentId,
          organizationId: user.organizationId,
          body: `Comment ${i}: a few words about this space, with **some** markdown.`,
          target: { revision: space2.revision },
        },
        metadata: { now: clock.now().toISOString(), actor: i % 2 === 0 ? user.userId : 'someone-else' },
      });
    }
    await runtime.catchUp();
    const seedMs = Number(process.hrtime.bigint() - seedStarted) / 1e6;

    const list = `/v1/spaces/${space.id}/comments?limit=100`;
    const body = await call('GET', list);
    if (JSON.parse(body).count !== COMMENTS)
      throw new Error(`expected ${COMMENTS} comments, got ${JSON.parse(body).count}`);
    raw = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    await new Promise((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const rawUrl = `http://127.0.0.1:${raw.address().port}`;

    await timed(30, () => call('GET', list)); // warm-up
    const listed = await timed(REQUESTS, () => call('GET', list));
    const byAuthor = await timed(REQUESTS, () => call('GET', `${list}&authors=${user.userId}&status=open`));
    await timed(30, () => fetch(rawUrl).then((r) => r.text()));
    const baseline = await timed(REQUESTS, () => fetch(rawUrl).then((r) => r.text()));
    const posted = await timed(REQUESTS, (i) =>
      call('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: `Posted ${i}` } }),
    );

    const listSummary = summary(listed);
    const rawSummary = summary(baseline);
    console.log(
      JSON.stringify({
        machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
        seed: { comments: COMMENTS, ms: Math.round(seedMs) },
        list100of10000: { ...listSummary, targetP99Ms: 25, met: listSummary.p99Ms < 25, bytes: body.length },
        list100ByAuthorOpen: summary(byAuthor),
        rawNodeHttpSameBody: rawSummary,
        listVsRawMedian: +(rawSummary.medianMs / listSummary.medianMs).toFixed(3),
        post: summary(posted),
      }),
    );
  } finally {
    raw?.close();
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
