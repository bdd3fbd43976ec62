'use strict';
/**
 * CPU time per request, in process: the built service answers `fastify.inject` calls (no sockets, no load
 * generator on the same cores), 50 at a time, and `process.cpuUsage()` is read around each round. Steal time on
 * a shared host inflates wall-clock numbers but not this one, so it compares builds more steadily than the load
 * test. Not part of `npm run bench`.
 *
 * Usage: npm run build && node bench/cpu.js [requests per round (default 3000)] [rounds (default 5)]
 * Environment: ONLY=get|patch runs one of the two; IN_FLIGHT (default 50) sets the requests in flight (1 makes the
 * wall time of each step of a request its CPU time, for timing steps in place).
 * Prints one JSON line: microseconds of CPU per request for each round of GET and PATCH /v1/orgs/{id}, and of wall
 * time (which also counts what the event loop waited for: a checkpoint's fsyncs, say).
 */
require('reflect-metadata');
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const REQUESTS = Number(process.argv[2] ?? 3000);
const ROUNDS = Number(process.argv[3] ?? 5);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 50);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-cpu-'));
  const env = {
    ...process.env,
    DATA_DIR: dir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    RATE_LIMIT_ENABLED: 'false',
  };
  Object.assign(process.env, env);
  try {
    const cli = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
    const account = JSON.parse(
      execFileSync('node', [cli, 'bootstrap', '--email', 'cpu@example.com', '--org', 'Bench', '--json'], {
        env,
        encoding: 'utf8',
      }),
    );
    const { createApp } = require('../dist/apps/api/src/app');
    const { loadConfig } = require('../dist/apps/api/src/config');
    const app = await createApp(loadConfig());
    await app.init();
    const fastify = app.getHttpAdapter().getInstance();
    await fastify.ready();
    const headers = { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' };
    const url = `/v1/orgs/${account.organizationId}`;
    const calls = {
      get: () => fastify.inject({ method: 'GET', url, headers }),
      patch: (i) => fastify.inject({ method: 'PATCH', url, headers, payload: JSON.stringify({ title: `Title ${i}` }) }),
    };
    const result = {};
    const wall = {};
    for (const [name, call] of Object.entries(calls).filter(([n]) => !process.env.ONLY || n === process.env.ONLY)) {
      result[name] = [];
      wall[name] = [];
      for (let round = 0; round < ROUNDS; round++) {
        let next = 0;
        const before = process.cpuUsage();
        const started = process.hrtime.bigint();
        await Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (next < REQUESTS) {
              const response = await call(next++);
              if (response.statusCode !== 200) throw new Error(`${name} answered ${response.statusCode}`);
            }
          }),
        );
        const used = process.cpuUsage(before);
        result[name].push(Math.round((used.user + used.system) / REQUESTS));
        wall[name].push(Math.round(Number(process.hrtime.bigint() - started) / 1000 / REQUESTS));
      }
    }
    await app.close();
    console.log(
      JSON.stringify({
        requestsPerRound: REQUESTS,
        cpuMicrosecondsPerRequest: result,
        wallMicrosecondsPerRequest: wall,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
