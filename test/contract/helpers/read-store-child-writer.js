/**
 * A second OS process for the read-store contract suite: it opens the SQLite read store on the file the test
 * uses, applies the write operations given as JSON (positions as numbers), reports to its parent and exits.
 *
 * Like event-store-child-writer.js, it installs a tiny SWC require hook for `.ts` files and maps `@app/kernel`
 * to kernel-for-adapters.ts (the few kernel modules the SQLite adapters use at run time).
 *
 * Usage (through child_process.fork): read-store-child-writer.js <file> <ops as JSON>
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
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

const { SqliteReadStore } = require(path.join(root, 'libs/read-store/src/sqlite-read-store.ts'));

async function main() {
  const [file, opsText] = process.argv.slice(2);
  const ops = JSON.parse(opsText).map((op) => ({ ...op, position: BigInt(op.position) }));
  const store = new SqliteReadStore({ file });
  try {
    await store.write(ops);
    process.send({ ok: true, pid: process.pid });
  } catch (error) {
    process.send({ ok: false, pid: process.pid, error: String(error && error.stack ? error.stack : error) });
  } finally {
    await store.close();
  }
}

main().then(
  () => process.disconnect(),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
