'use strict';
/**
 * Fan-out of one organization's event feed to many Server-Sent Events subscribers, on the built code (dist/), in
 * process over real HTTP on the embedded backends, printed as one JSON line. The subscribers run in a child
 * process (so parsing 100 streams does not share the service's event loop); the parent appends title changes of
 * one space at a steady rate, each carrying its append time (wall clock, shared by both processes) as the title,
 * and every subscriber measures the delay from just before the append to the moment it parsed the event.
 * Run with `npm run build && node bench/feed.js`. BENCH_FEED_SUBSCRIBERS (100), BENCH_FEED_EVENTS (1000),
 * BENCH_FEED_RATE (events appended per second, 100).
 */
const { fork } = require('node:child_process');
const { request } = require('node:http');
const { randomUUID } = require('node:crypto');
const { cpus } = require('node:os');

const SUBSCRIBERS = Number(process.env.BENCH_FEED_SUBSCRIBERS ?? 100);
const EVENTS = Number(process.env.BENCH_FEED_EVENTS ?? 1000);
const RATE = Number(process.env.BENCH_FEED_RATE ?? 100);
const now = () => performance.timeOrigin + performance.now();

/** The child: opens the streams, reports each event's delay, and answers with the figures once all arrived. */
function subscribers() {
  process.once('message', ({ url, token }) => {
    const delays = [];
    let received = 0;
    let first = Infinity;
    let last = 0;
    let opened = 0;
    const streams = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const req = request(
        url,
        { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
        (res) => {
          if (res.statusCode !== 200) throw new Error(`stream answered ${res.statusCode}`);
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk) => {
            buffer += chunk;
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const message = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = message.split('\n').find((line) => line.startsWith('data: '));
              if (!data) continue;
              const event = JSON.parse(data.slice(6));
              if (event.type !== 'space.updated') continue;
              const at = now();
              delays.push(at - Number(event.data.changes.title));
              received++;
              first = Math.min(first, at);
              last = Math.max(last, at);
              if (received === SUBSCRIBERS * EVENTS) {
                for (const stream of streams) stream.destroy();
                process.send({ delays: summary(delays), received, first, last });
              }
            }
          });
          if (++opened === SUBSCRIBERS) process.send({ ready: true });
        },
      );
      req.end();
      streams.push(req);
    }
  });
}

function summary(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (q) => +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1);
  return {
    count: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: +sorted[sorted.length - 1].toFixed(1),
  };
}

async function main() {
  const { startInProcess } = require('./in-process');
  // every subscriber streams with the one bootstrapped token: allow that token as many streams as there are
  const { events, user, url, call, close } = await startInProcess('feed', new Date(), {
    SSE_MAX_STREAMS_PER_TOKEN: String(SUBSCRIBERS),
    SSE_MAX_STREAMS: String(Math.max(SUBSCRIBERS, 500)),
  });
  const child = fork(__filename, ['subscribers'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const space = await call('POST', `/v1/orgs/${user.organizationId}/spaces`, { title: 'Bench' });
    const results = new Promise((resolve, reject) => {
      child.on('message', (message) => message.delays && resolve(message));
      child.on('exit', (code) => reject(new Error(`subscribers exited with ${code}`)));
    });
    const ready = new Promise((resolve) => child.once('message', resolve));
    child.send({ url: `${url}/v1/orgs/${user.organizationId}/events`, token: user.token });
    await ready;
    await new Promise((resolve) => setTimeout(resolve, 500)); // every stream has its headers and waits live

    const started = now();
    for (let i = 0; i < EVENTS; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const at = now();
      await events.append(
        `space-${space.id}`,
        [
          {
            id: randomUUID(),
            type: 'SpaceUpdated',
            data: { spaceId: space.id, changes: { title: String(at) }, updatedAt: new Date().toISOString() },
            metadata: { userId: user.userId },
          },
        ],
        'any',
      );
    }
    const appendedIn = (now() - started) / 1000;
    const result = await results;
    const seconds = (result.last - started) / 1000;
    console.log(
      JSON.stringify({
        machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
        subscribers: SUBSCRIBERS,
        events: EVENTS,
        appendRate: RATE,
        appendedInSeconds: +appendedIn.toFixed(2),
        delivered: result.received,
        deliveredPerSecond: Math.round(result.received / seconds),
        delayMs: result.delays,
        targetP99Ms: 100,
        met: result.delays.p99 < 100,
      }),
    );
  } finally {
    child.kill();
    await close();
  }
}

if (process.argv[2] === 'subscribers') subscribers();
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
