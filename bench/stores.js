'use strict';
/**
 * Event-store and replay measures on the built code (dist/), printed as one JSON line:
 * appends per second (one event per append, and ten), reading the global order, and the projection runner
 * replaying BENCH_REPLAY_EVENTS events (default 1,000,000) of organization history into the organizations read
 * model from scratch. The stores are opened as the service opens them (write-ahead log checkpointed by a worker
 * thread); BACKGROUND_CHECKPOINTS=false opens them as the CLI does, for comparison.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createEventStore } = require('../dist/libs/event-store/src');
const { createReadStore } = require('../dist/libs/read-store/src');
const { ProjectionRunner, newEventId, newId, START } = require('../dist/libs/kernel/src');
const { organizationsProjection } = require('../dist/libs/identity/src/projections');

const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 1_000_000);
const BACKGROUND = process.env.BACKGROUND_CHECKPOINTS !== 'false';
const sqlite = (file) => ({ driver: 'sqlite', file, backgroundCheckpoints: BACKGROUND });
const EVENTS_PER_ORGANIZATION = 10;

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

function organizationHistory(organizationId, at) {
  const events = [
    {
      id: newEventId(),
      type: 'OrganizationCreated',
      data: {
        organizationId,
        title: `Organization ${organizationId}`,
        type: 'business',
        emailDomains: [],
        createdBy: 'bench',
        createdAt: at,
      },
      metadata: { userId: 'bench' },
    },
  ];
  for (let i = 1; i < EVENTS_PER_ORGANIZATION; i++) {
    events.push({
      id: newEventId(),
      type: 'OrganizationUpdated',
      data: {
        organizationId,
        changes: { title: `Organization ${organizationId} v${i}`, ai: i % 2 === 0 },
        updatedAt: at,
      },
      metadata: { userId: 'bench' },
    });
  }
  return events;
}

async function appends(dir) {
  const store = await createEventStore(sqlite(join(dir, 'appends.sqlite')));
  const at = new Date().toISOString();
  const single = 20_000;
  let start = process.hrtime.bigint();
  for (let i = 0; i < single; i++) {
    await store.append(
      `organization-s${i % 1000}`,
      [
        {
          id: newEventId(),
          type: 'OrganizationUpdated',
          data: { organizationId: `s${i % 1000}`, changes: { title: `T${i}` }, updatedAt: at },
        },
      ],
      'any',
    );
  }
  const appendsSingle = Math.round(single / seconds(start));
  const batches = 5_000;
  start = process.hrtime.bigint();
  for (let i = 0; i < batches; i++)
    await store.append(`organization-b${i}`, organizationHistory(`b${i}`, at), 'no_stream');
  const appendsBatched = Math.round((batches * EVENTS_PER_ORGANIZATION) / seconds(start));
  await store.close();
  return { appendsSingle, appendsBatched };
}

async function replay(dir) {
  const events = await createEventStore(sqlite(join(dir, 'replay-events.sqlite')));
  const at = new Date().toISOString();
  const organizations = Math.ceil(REPLAY_EVENTS / EVENTS_PER_ORGANIZATION);
  for (let i = 0; i < organizations; i++)
    await events.append(`organization-${newId()}`, organizationHistory(newId(), at), 'no_stream');

  let start = process.hrtime.bigint();
  let after = START;
  let read = 0;
  for (;;) {
    const page = await events.readAll({ after, maxCount: 1000 });
    if (page.length === 0) break;
    read += page.length;
    after = page[page.length - 1].position;
  }
  const readAllRate = Math.round(read / seconds(start));

  const reads = await createReadStore(sqlite(join(dir, 'replay-read.sqlite')));
  const runner = new ProjectionRunner(events, reads, [organizationsProjection], { batchSize: 1000 });
  start = process.hrtime.bigint();
  await runner.start();
  await runner.catchUp(undefined, 30 * 60 * 1000);
  const replaySeconds = seconds(start);
  await runner.stop();
  const replayDocs = await reads.count(organizationsProjection.collection);
  await reads.close();
  await events.close();
  return {
    replayEvents: read,
    replayDocs,
    replaySeconds: Number(replaySeconds.toFixed(1)),
    replayRate: Math.round(read / replaySeconds),
    readAllRate,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-stores-'));
  try {
    const appendResults = await appends(dir);
    const replayResults = await replay(dir);
    console.log(JSON.stringify({ ...appendResults, ...replayResults }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
