'use strict';
/**
 * Chosen HTTP rows of `npm run bench`, for measuring one change at a time (not part of `npm run bench`; writes no
 * README). The built service (dist/) runs as its own process on a fresh DATA_DIR, set up as bench/run.js sets it
 * up but for the chosen rows only, and each row is measured against a raw node:http baseline answering the same
 * body, in alternating rounds.
 *
 * Usage: npm run build && ROWS=site,space node bench/rows.js
 * Rows: org, org-patch, space, list, space-patch, cr, site, fields.
 * Environment: BENCH_SECONDS (default 10), BENCH_ROUNDS (default 3); SPACES (default 10000) seeded for space,
 * list and site; COMPARE=<dir> also runs the service built in another checkout (its dist/, e.g. the commit
 * before a change) on its own DATA_DIR, and each round measures baseline, that service, then this one, so
 * before/after pairs are taken side by side; PROFILE_DIR=<dir> profiles this service instead (no baseline): a
 * CPU profile of each row's load goes to <dir> (bench/profile-on-signal.js), read it with
 * bench/profile-summary.js. CEILING=1 also measures the framework ceiling (bench/framework-ceiling-server.js answering
 * the same body) in each round of a GET row.
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, mkdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { cpuOf, rssOf, serviceCommand, startBaseline, startProcess, stopProcess, load } = require('./run');

const ROOT = join(__dirname, '..');
const ROWS = (process.env.ROWS ?? 'org,space,site').split(',');
const SPACES = Number(process.env.SPACES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROFILE_DIR = process.env.PROFILE_DIR;
const COMPARE = process.env.COMPARE;
const CEILING = process.env.CEILING === '1';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Starts the service built under `root` on a fresh DATA_DIR and sets up what the chosen rows need. */
async function startService(root, name) {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-rows-'));
  const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false' };
  const profiled = PROFILE_DIR && root === ROOT;
  if (profiled) mkdirSync(PROFILE_DIR, { recursive: true });
  const args = profiled ? ['-r', join(__dirname, 'profile-on-signal.js')] : [];
  const { child, match } = await startProcess(
    'node',
    [...args, ...serviceCommand(root)],
    { ...env, PROFILE_DIR: PROFILE_DIR ?? '' },
    (out) => /listening on http:\/\/[^:]+:(\d+)/.exec(out),
  );
  child.stderr.on('data', (chunk) => process.stderr.write(`${name}: ${chunk}`));
  child.on('exit', (code, signal) => console.error(`${name} exited: ${code ?? signal}`));
  const url = `http://127.0.0.1:${match[1]}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const line = execFileSync(
      'node',
      [
        join(root, 'dist/apps/cli/src/main.js'),
        'bootstrap',
        '--email',
        'bench@example.com',
        '--org',
        'Bench',
        '--json',
      ],
      { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .pop();
    const { token, organizationId, userId } = JSON.parse(line);
    const headers = { authorization: `Bearer ${token}` };
    const json = { ...headers, 'content-type': 'application/json' };
    const call = async (method, path, body, expected) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: body === undefined ? headers : json,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return text ? JSON.parse(text) : null;
    };
    for (let i = 0; i < 200; i++) {
      if ((await fetch(`${url}/v1/orgs/${organizationId}`, { headers })).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    const routes = {};
    const get = (path) => ({ path, request: (base) => ({ url: `${base}${path}`, headers }) });
    const patch = (path, prefix) => ({
      path,
      write: true,
      request: (base) => ({
        url: `${base}${path}`,
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ title: `${prefix} [<id>]` }),
        idReplacement: true,
      }),
    });
    routes.org = get(`/v1/orgs/${organizationId}`);
    routes['org-patch'] = patch(`/v1/orgs/${organizationId}`, 'Bench');

    if (ROWS.some((row) => ['space', 'list', 'space-patch', 'site'].includes(row))) {
      execFileSync('node', [join(root, 'bench/seed-spaces.js'), organizationId, userId, String(SPACES)], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      for (let waited = 0; ; waited += 50) {
        const seen = await call('GET', `/v1/orgs/${organizationId}/spaces?limit=0`, undefined, 200);
        if (seen.count === SPACES) break;
        if (waited > 120_000) throw new Error(`only ${seen.count} spaces seen after 120 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const page = await call('GET', `/v1/orgs/${organizationId}/spaces?limit=500`, undefined, 200);
      const spaceId = page.items[50].id;
      routes.space = get(`/v1/spaces/${spaceId}`);
      routes['space-patch'] = patch(`/v1/spaces/${spaceId}`, 'Space');
      routes.list = get(`/v1/orgs/${organizationId}/spaces?limit=100`);
      if (ROWS.includes('site')) {
        const sites = `/v1/orgs/${organizationId}/sites`;
        const site = await call('POST', sites, { title: 'Large site' }, 201);
        const ids = page.items.map((space) => space.id);
        for (let s = 0; s < 50; s++) {
          const mine = ids.slice(s * 10, (s + 1) * 10);
          const section = await call('POST', `${sites}/${site.id}/sections`, { spaceId: mine[0], title: `S${s}` }, 201);
          for (const id of mine.slice(1)) {
            await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: id, sectionId: section.id }, 201);
          }
        }
        await call('POST', `${sites}/${site.id}/publish`, undefined, 200);
        routes.site = get(`${sites}/${site.id}`);
      }
    }
    if (ROWS.includes('cr')) {
      const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Review bench' }, 201);
      const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Bench' }, 201);
      routes.cr = get(`/v1/spaces/${space.id}/change-requests/${cr.id}`);
    }
    if (ROWS.includes('fields')) {
      const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Described' }, 201);
      const kinds = ['text', 'number', 'boolean', 'tags', 'select:single'];
      const values = {};
      for (let i = 0; i < 50; i++) {
        const type = kinds[i % kinds.length];
        const options = type === 'select:single' ? { options: ['alpha', 'beta', 'gamma'] } : {};
        const field = { name: `f${i}`, type, title: `F ${i}`, ...options };
        await call('POST', `/v1/orgs/${organizationId}/custom-fields`, field, 201);
        values[`f${i}`] = {
          value: { text: `value ${i}`, number: i, boolean: i % 2 === 0, tags: ['a', 'b'], 'select:single': 'beta' }[
            type
          ],
        };
      }
      await call('PATCH', `/v1/spaces/${space.id}/custom-fields`, { values }, 204);
      routes.fields = get(`/v1/spaces/${space.id}/custom-fields`);
    }
    return { url, routes, child, stop, headers };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The body the route answers now (a write: one PATCH with a fresh title). */
async function sampleOf(service, route) {
  const options = route.request(service.url);
  const response = await fetch(options.url, {
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body?.replace('[<id>]', `${Date.now()}`.padEnd(33, '0')),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${options.url} answered ${response.status}: ${text}`);
  return text;
}

/**
 * One load run: req/s, p99, the server's CPU time per answer (steadier than req/s on a shared host) and its RSS
 * (MiB) after the run.
 */
async function measure(route, target, pid) {
  const before = pid && cpuOf(pid);
  const result = await load(route.request(target));
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${target}: failed answers`);
  const cpu = pid ? Math.round((cpuOf(pid) - before) / result.requests.total) : undefined;
  const rss = pid ? rssOf(pid) : undefined;
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, cpu, rss };
}

async function main() {
  const services = [];
  try {
    if (COMPARE && !PROFILE_DIR) services.push({ name: 'before', ...(await startService(COMPARE, 'before')) });
    services.push({ name: 'after', ...(await startService(ROOT, 'after')) });
    const mine = services[services.length - 1];
    for (const row of ROWS) {
      if (!mine.routes[row]) throw new Error(`unknown row ${row}`);
      if (PROFILE_DIR) {
        const route = mine.routes[row];
        await load({ ...route.request(mine.url), duration: 2 });
        mine.child.kill('SIGWINCH');
        const result = await measure(route, mine.url);
        mine.child.kill('SIGWINCH');
        await new Promise((resolve) => setTimeout(resolve, 1500));
        console.log(`${row}: ${result.rps} req/s, p99 ${result.p99} ms (profiled)`);
        continue;
      }
      const sample = await sampleOf(mine, mine.routes[row]);
      const baseline = await startBaseline(sample);
      const ceiling =
        CEILING && !row.includes('patch') ? await startBaseline(sample, 'framework-ceiling-server.js') : null;
      const measured = ceiling
        ? [{ name: 'ceiling', url: ceiling.url, child: { pid: ceiling.pid }, routes: mine.routes }, ...services]
        : services;
      try {
        const base = {
          request: (target) => ({ ...mine.routes[row].request(target), url: target + mine.routes[row].path }),
        };
        await load({ ...base.request(baseline.url), duration: 1 });
        for (const service of measured) await load({ ...service.routes[row].request(service.url), duration: 2 });
        const rounds = [];
        for (let round = 0; round < ROUNDS; round++) {
          const one = { base: await measure(base, baseline.url, baseline.pid) };
          for (const service of measured) {
            one[service.name] = await measure(service.routes[row], service.url, service.child.pid);
          }
          rounds.push(one);
          console.error(
            `  ${row} round ${round + 1}: baseline ${one.base.rps} (${one.base.cpu} µs CPU, p99 ${one.base.p99})` +
              measured
                .map(
                  (s) =>
                    `, ${s.name} ${one[s.name].rps} (${((100 * one[s.name].rps) / one.base.rps).toFixed(1)}%, p99 ${one[s.name].p99}, ${one[s.name].cpu} µs CPU, ${one[s.name].rss} MiB)`,
                )
                .join(''),
          );
        }
        const summary = measured
          .map((service) => {
            const ratios = rounds.map((r) => (100 * r[service.name].rps) / r.base.rps);
            const p99 = median(rounds.map((r) => r[service.name].p99));
            const cpu = median(rounds.map((r) => r[service.name].cpu));
            const cpuRatios = rounds.map((r) => (100 * r.base.cpu) / r[service.name].cpu);
            return (
              `${service.name} ${median(ratios).toFixed(1)}% (${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}), p99 ${p99} ms, ` +
              `${cpu} µs CPU per answer (baseline's CPU per answer / service's: ${median(cpuRatios).toFixed(1)}%)`
            );
          })
          .join('; ');
        console.log(`${row} (${Buffer.byteLength(sample)} B): ${summary}`);
      } finally {
        await baseline.stop();
        await ceiling?.stop();
      }
    }
  } finally {
    for (const service of services) await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
