'use strict';
/**
 * Event-store and replay measures on the built code (dist/), printed as one JSON line:
 * appends per second (one event per append, and ten), reading the global order, and the projection runner
 * replaying BENCH_REPLAY_EVENTS events (default 1,000,000) of organization history into the organizations read
 * model from scratch. The stores are opened as the service opens them (write-ahead log checkpointed by a worker
 * thread); BACKGROUND_CHECKPOINTS=false opens them as the CLI does, for comparison.
 *
 * Single-event appends run in BENCH_ROUNDS (default 3) rounds, each on fresh files and each beside a baseline:
 * better-sqlite3 alone running the same transaction (the stream's last revision, then one insert) on a file
 * whose schema the store made, with the same pragmas and background checkpoints, and nothing around it. The
 * replay runs BENCH_ROUNDS times over the same log, into a fresh read store each time, and as many times beside
 * with the read-ahead worker off (every page read on the event loop), alternating which goes first. Last,
 * single-event appends run to the existing streams of copies of that log (its ids and the new ones time-ordered,
 * as the service makes them) and of a log grown the same way with random ids (random new ones), alternating.
 */
const { randomUUID } = require('node:crypto');
const { copyFileSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const Database = require('better-sqlite3');
const { createEventStore, SqliteEventStore } = require('../dist/libs/event-store/src');
const { createReadStore } = require('../dist/libs/read-store/src');
const { ProjectionRunner, newEventId, newId, START, startWalCheckpointer } = require('../dist/libs/kernel/src');
const { organizationsProjection } = require('../dist/libs/identity/src/projections');

const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 1_000_000);
const BACKGROUND = process.env.BACKGROUND_CHECKPOINTS !== 'false';
const sqlite = (file) => ({ driver: 'sqlite', file, backgroundCheckpoints: BACKGROUND });
const EVENTS_PER_ORGANIZATION = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SINGLE_APPENDS = 20_000;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const spread = (values) => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
  count: values.length,
});

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

function organizationHistory(organizationId, at, makeId = newEventId) {
  const events = [
    {
      id: makeId(),
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
      id: makeId(),
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

function singleAppend(i, at) {
  return {
    streamId: `organization-s${i % 1000}`,
    event: {
      id: newEventId(),
      type: 'OrganizationUpdated',
      data: { organizationId: `s${i % 1000}`, changes: { title: `T${i}` }, updatedAt: at },
    },
  };
}

/**
 * Single-event appends per second through the port (each awaited, as a command awaits its append); `appendOf`
 * gives the i-th stream and event.
 */
async function portAppends(file, appendOf = singleAppend) {
  const store = await createEventStore(sqlite(file));
  const at = new Date().toISOString();
  const start = process.hrtime.bigint();
  for (let i = 0; i < SINGLE_APPENDS; i++) {
    const { streamId, event } = appendOf(i, at);
    await store.append(streamId, [event], 'any');
  }
  const rate = Math.round(SINGLE_APPENDS / seconds(start));
  await store.close();
  return rate;
}

/** Appends organizations' histories (10 events each) to a new log; answers their stream ids. */
async function fillLog(file, events, makeId = newEventId) {
  const store = await createEventStore(sqlite(file));
  const at = new Date().toISOString();
  const streams = [];
  for (let i = 0; i < Math.ceil(events / EVENTS_PER_ORGANIZATION); i++) {
    const streamId = `organization-${newId()}`;
    await store.append(streamId, organizationHistory(newId(), at, makeId), 'no_stream');
    streams.push(streamId);
  }
  await store.close();
  return streams;
}

/** Single-event appends per second into a copy of a grown log, to its existing streams, ids made by `makeId`. */
async function grownAppends(log, copy, streams, makeId) {
  copyFileSync(log, copy);
  const rate = await portAppends(copy, (i, at) => {
    const streamId = streams[(i * 7919) % streams.length];
    const data = { organizationId: streamId, changes: { title: `T${i}` }, updatedAt: at };
    return { streamId, event: { id: makeId(), type: 'OrganizationUpdated', data } };
  });
  rmSync(copy, { force: true });
  return rate;
}

/** The baseline: better-sqlite3 alone running the append's transaction, on a file whose schema the store made. */
async function rawAppends(file) {
  await (await createEventStore(sqlite(file))).close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const checkpointer = BACKGROUND
    ? startWalCheckpointer({ file, connection: db, driver: require.resolve('better-sqlite3') })
    : undefined;
  const last = db.prepare('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1').pluck(true);
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const append = db.transaction((streamId, event) => {
    const revision = (last.get(streamId) ?? -1) + 1;
    const recordedAt = new Date().toISOString();
    insert.run(streamId, revision, event.id, event.type, JSON.stringify(event.data), '{}', recordedAt);
  }).immediate;
  const at = new Date().toISOString();
  const start = process.hrtime.bigint();
  for (let i = 0; i < SINGLE_APPENDS; i++) {
    const { streamId, event } = singleAppend(i, at);
    append(streamId, event);
    await null; // a turn of the microtask queue, as the port's awaited promise costs
  }
  const rate = Math.round(SINGLE_APPENDS / seconds(start));
  await checkpointer?.stop();
  db.close();
  return rate;
}

async function appends(dir) {
  const single = [];
  const raw = [];
  for (let round = 0; round < ROUNDS; round++) {
    raw.push(await rawAppends(join(dir, `raw-${round}.sqlite`)));
    single.push(await portAppends(join(dir, `appends-${round}.sqlite`)));
  }
  const ratios = single.map((rate, round) => rate / raw[round]);

  const store = await createEventStore(sqlite(join(dir, 'batched.sqlite')));
  const at = new Date().toISOString();
  const batches = 5_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < batches; i++)
    await store.append(`organization-b${i}`, organizationHistory(`b${i}`, at), 'no_stream');
  const appendsBatched = Math.round((batches * EVENTS_PER_ORGANIZATION) / seconds(start));
  await store.close();
  return {
    appendsSingle: median(single),
    appendsSingleSpread: spread(single),
    appendsSingleRaw: spread(raw),
    appendsSingleOfRaw: spread(ratios.map((ratio) => Number(ratio.toFixed(3)))),
    appendsBatched,
  };
}

async function replay(dir) {
  const log = join(dir, 'replay-events.sqlite');
  const streams = await fillLog(log, REPLAY_EVENTS);
  const events = await createEventStore(sqlite(log));

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

  await events.close();

  // Each round replays twice, in alternating order: as the service does (pages read ahead by a worker thread once
  // the subscription is a few batches behind) and with every page read on the event loop, for comparison.
  const rates = [];
  const withoutReadAhead = [];
  let replayDocs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const readAhead of order) {
      const store = new SqliteEventStore({
        file: log,
        backgroundCheckpoints: BACKGROUND,
        ...(readAhead ? {} : { readAheadAfter: 0 }),
      });
      const name = `replay-read-${round}-${readAhead ? 'ahead' : 'loop'}.sqlite`;
      const reads = await createReadStore(sqlite(join(dir, name)));
      const runner = new ProjectionRunner(store, reads, [organizationsProjection], { batchSize: 1000 });
      start = process.hrtime.bigint();
      await runner.start();
      await runner.catchUp(undefined, 30 * 60 * 1000);
      const took = seconds(start);
      await runner.stop();
      (readAhead ? rates : withoutReadAhead).push(Math.round(read / took));
      replayDocs = await reads.count(organizationsProjection.collection);
      await reads.close();
      await store.close();
    }
  }
  // Single-event appends to the log's streams once it has grown, with ids as the service makes them (time-ordered)
  // and with random ones (what it made before) into a log grown with random ids, alternating which goes first.
  const randomLog = join(dir, 'grown-random-ids.sqlite');
  const randomStreams = await fillLog(randomLog, REPLAY_EVENTS, randomUUID);
  const timeOrdered = [];
  const random = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const ordered of order) {
      const copy = join(dir, `grown-copy.sqlite`);
      if (ordered) timeOrdered.push(await grownAppends(log, copy, streams, newEventId));
      else random.push(await grownAppends(randomLog, copy, randomStreams, randomUUID));
    }
  }
  return {
    grownAppends: spread(timeOrdered),
    grownAppendsRandomIds: spread(random),
    replayEvents: read,
    replayDocs,
    replaySeconds: Number((read / median(rates)).toFixed(1)),
    replayRate: median(rates),
    replaySpread: spread(rates),
    replayWithoutReadAhead: spread(withoutReadAhead),
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
