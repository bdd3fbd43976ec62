'use strict';
/**
 * Webhook delivery throughput on the built code (dist/), in process on the embedded backends, printed as one JSON
 * line. A receiver in its own process (bench/webhook-receiver.js, allowed through FETCH_ALLOWLIST) answers 204 at
 * once. The organization first gets BENCH_WEBHOOK_EVENTS public events (space title changes over HTTP) while its
 * webhooks are inactive; then the webhooks are activated and the clock starts: events/s delivered (signed,
 * recorded as an attempt each, in order) for one webhook, then for ten webhooks over the same events.
 * Run with `npm run build && node bench/webhooks.js`.
 */
const { spawn } = require('node:child_process');
const { cpus } = require('node:os');
const { join } = require('node:path');
const { startInProcess } = require('./in-process');

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const TIMEOUT_MS = Number(process.env.BENCH_WEBHOOK_TIMEOUT_MS ?? 300_000);

function startReceiver() {
  const child = spawn('node', [join(__dirname, 'webhook-receiver.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.on('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
}

async function stats(port) {
  return (await fetch(`http://127.0.0.1:${port}/stats`)).json();
}

/** Activates the webhooks and measures until each has received `EVENTS` deliveries. */
async function deliver(call, organizationId, webhooks, port, paths) {
  const started = process.hrtime.bigint();
  await Promise.all(webhooks.map((id) => call('PATCH', `/v1/orgs/${organizationId}/webhooks/${id}`, { active: true })));
  for (;;) {
    const { counts, outOfOrder } = await stats(port);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const done = paths.every((path) => (counts[path] ?? 0) >= EVENTS);
    if (done) {
      const total = paths.reduce((sum, path) => sum + counts[path], 0);
      return {
        webhooks: webhooks.length,
        deliveries: total,
        seconds: +seconds.toFixed(2),
        eventsPerSecond: Math.round(total / seconds),
        perWebhookPerSecond: Math.round(total / webhooks.length / seconds),
        outOfOrder,
      };
    }
    if (seconds * 1000 > TIMEOUT_MS) throw new Error(`not delivered in time: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function main() {
  const receiver = await startReceiver();
  const { call, close, user, runtime } = await startInProcess('webhooks', new Date(), {
    FETCH_ALLOWLIST: `127.0.0.1:${receiver.port}`,
  });
  try {
    const org = user.organizationId;
    const create = async (path) =>
      (
        await call('POST', `/v1/orgs/${org}/webhooks`, {
          url: `http://127.0.0.1:${receiver.port}${path}`,
          active: false,
        })
      ).id;
    const onePath = ['/one'];
    const tenPaths = Array.from({ length: 10 }, (_, i) => `/ten-${i}`);
    const one = [await create(onePath[0])];
    const ten = [];
    for (const path of tenPaths) ten.push(await create(path));

    // the public events: title changes of a few spaces, 8 requests in flight
    const seedStarted = process.hrtime.bigint();
    const spaces = [];
    for (let i = 0; i < 8; i++)
      spaces.push((await call('POST', `/v1/orgs/${org}/spaces`, { title: `Hooked ${i}` })).id);
    const remaining = EVENTS - spaces.length;
    let next = 0;
    await Promise.all(
      spaces.map(async (space) => {
        while (next < remaining) {
          const n = next++;
          await call('PATCH', `/v1/spaces/${space}`, { title: `Title ${n}` });
        }
      }),
    );
    await runtime.catchUp();
    const seedSeconds = Number(process.hrtime.bigint() - seedStarted) / 1e9;

    const single = await deliver(call, org, one, receiver.port, onePath);
    const many = await deliver(call, org, ten, receiver.port, tenPaths);
    console.log(
      JSON.stringify({
        machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
        events: EVENTS,
        seedSeconds: +seedSeconds.toFixed(1),
        one: single,
        ten: many,
      }),
    );
  } finally {
    await close();
    receiver.child.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
