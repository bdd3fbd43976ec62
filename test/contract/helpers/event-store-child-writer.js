/**
 * A second OS process for the event-store contract suite: it opens the SQLite event store on the file the test
 * uses and appends single events to its own stream, then reports the results to its parent and exits.
 *
 * Jest transpiles TypeScript only inside its own process, so this script installs a tiny SWC require hook for
 * `.ts` files and maps `@app/kernel` to
 * kernel-for-adapters.ts (the few kernel modules the SQLite adapters use).
 *
 * Usage (through child_process.fork): event-store-child-writer.js <file> <streamId> <count>
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../../..');
const kernelPort = path.join(__dirname, 'kernel-for-adapters.ts');

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@app/kernel') return kernelPort;
  return resolveFilename.call(this, request, ...rest);
};
Module._extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    module: { type: 'commonjs' },
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  });
  module._compile(code, filename);
};

const { SqliteEventStore } = require(path.join(root, 'libs/event-store/src/sqlite-event-store.ts'));

async function main() {
  const [file, streamId, countText] = process.argv.slice(2);
  const count = Number(countText);
  const store = new SqliteEventStore({ file });
  const positions = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const result = await store.append(
        streamId,
        [{ id: randomUUID(), type: 'ChildWrote', data: { i, pid: process.pid } }],
        i === 0 ? 'no_stream' : i - 1,
      );
      positions.push(result.position.toString());
      // Give the parent's writer a chance to take the lock in between.
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    await store.close();
  }
  return positions;
}

main().then(
  (positions) => process.send({ ok: true, pid: process.pid, positions }, () => process.exit(0)),
  (error) =>
    process.send({ ok: false, error: String(error && error.stack ? error.stack : error) }, () => process.exit(1)),
);
