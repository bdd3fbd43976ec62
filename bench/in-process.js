'use strict';
/**
 * The in-process service the review benchmarks share (bench/merge.js, bench/comments.js): the built app (dist/) on
 * the embedded backends in a temporary DATA_DIR, listening on a loopback port, with a manual clock and one
 * bootstrapped user whose token every `call` carries; `env` adds settings (FETCH_ALLOWLIST). Run `npm run build`
 * first.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createApp } = require('../dist/apps/api/src/app');
const { loadConfig } = require('../dist/apps/api/src/config');
const { bootstrap } = require('../dist/libs/identity/src');
const { EVENT_STORE, KEY_STORE, ManualClock, Runtime } = require('../dist/libs/kernel/src');

async function startInProcess(name, start = new Date(), env = {}) {
  const dir = mkdtempSync(join(tmpdir(), `quire-bench-${name}-`));
  const config = loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: 'false', ...env });
  const clock = new ManualClock(start);
  const app = await createApp(config, { clock });
  const close = async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${app.getHttpServer().address().port}`;
    const events = app.get(EVENT_STORE);
    const user = await bootstrap(events, app.get(KEY_STORE), clock, {
      email: 'bench@example.com',
      organizationTitle: 'Bench',
    });
    await app.get(Runtime).catchUp();
    /** The answer's text; anything but a success throws with the status and the answer. */
    const callText = async (method, path, payload) => {
      const response = await fetch(url + path, {
        method,
        headers: {
          authorization: `Bearer ${user.token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text;
    };
    const call = async (method, path, payload) => JSON.parse(await callText(method, path, payload));
    return { app, url, clock, events, user, call, callText, runtime: app.get(Runtime), close };
  } catch (error) {
    await close();
    throw error;
  }
}

module.exports = { startInProcess };
