'use strict';
/**
 * CPU per GET of each row, in process (fastify.inject, one request at a time, no sockets and no load generator on
 * the same cores): steadier than the load test on a shared host, for comparing two builds one after the other.
 * Not part of `npm run bench`. Rows: an organization, a space (of 200), the list of 100 of them, a site of 20
 * sections and 200 site spaces, a space's 50 custom fields. Prints one JSON line: the lowest of 5 rounds of 1000
 * requests, in microseconds of CPU per request.
 *
 * Usage: npm run build && node bench/cpu-rows.js [root of a built checkout (default: this one)]
 * Environment: ONLY=<row>[,<row>] measures those rows only (for a CPU profile of one row, say).
 */
require('reflect-metadata');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const root = process.argv[2] ?? join(__dirname, '..');
(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rc-inj-'));
  const { createApp } = require(join(root, 'dist/apps/api/src/app'));
  const { loadConfig } = require(join(root, 'dist/apps/api/src/config'));
  const { bootstrap } = require(join(root, 'dist/libs/identity/src'));
  const { EVENT_STORE, KEY_STORE, Runtime, systemClock } = require(join(root, 'dist/libs/kernel/src'));
  const app = await createApp(
    loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: 'false' }),
  );
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  const user = await bootstrap(app.get(EVENT_STORE), app.get(KEY_STORE), systemClock, {
    email: 'b@example.com',
    organizationTitle: 'Bench',
  });
  await app.get(Runtime).catchUp();
  const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
  const call = async (method, url, payload, expected = [200, 201, 204]) => {
    const r = await fastify.inject({ method, url, headers, payload: payload && JSON.stringify(payload) });
    if (!expected.includes(r.statusCode)) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.body ? JSON.parse(r.body) : null;
  };
  const org = user.organizationId;
  const spaces = [];
  for (let i = 0; i < 200; i++) spaces.push((await call('POST', `/v1/orgs/${org}/spaces`, { title: `S${i}` })).id);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Site' });
  for (let s = 0; s < 20; s++) {
    const mine = spaces.slice(s * 10, s * 10 + 10);
    const section = await call('POST', `/v1/orgs/${org}/sites/${site.id}/sections`, {
      spaceId: mine[0],
      title: `S${s}`,
    });
    for (const id of mine.slice(1))
      await call('POST', `/v1/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: id, sectionId: section.id });
  }
  const kinds = ['text', 'number', 'boolean', 'tags', 'select:single'];
  const values = {};
  for (let i = 0; i < 50; i++) {
    const type = kinds[i % 5];
    await call('POST', `/v1/orgs/${org}/custom-fields`, {
      name: `f${i}`,
      type,
      title: `F${i}`,
      ...(type === 'select:single' ? { options: ['a', 'b'] } : {}),
    });
    values[`f${i}`] = { value: { text: 't', number: i, boolean: true, tags: ['a'], 'select:single': 'b' }[type] };
  }
  await call('PATCH', `/v1/spaces/${spaces[0]}/custom-fields`, { values });
  const rows = {
    org: `/v1/orgs/${org}`,
    space: `/v1/spaces/${spaces[5]}`,
    list: `/v1/orgs/${org}/spaces?limit=100`,
    site: `/v1/orgs/${org}/sites/${site.id}`,
    fields: `/v1/spaces/${spaces[0]}/custom-fields`,
  };
  const out = {};
  const only = process.env.ONLY?.split(',');
  for (const [name, url] of Object.entries(rows).filter(([row]) => !only || only.includes(row))) {
    for (let i = 0; i < 300; i++) await call('GET', url);
    const results = [];
    for (let round = 0; round < 5; round++) {
      const before = process.cpuUsage();
      for (let i = 0; i < 1000; i++) await call('GET', url);
      const used = process.cpuUsage(before);
      results.push(Math.round((used.user + used.system) / 1000));
    }
    out[name] = Math.min(...results);
  }
  console.log(JSON.stringify(out));
  await app.close();
  process.exit(0);
})();
