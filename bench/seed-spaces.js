'use strict';
/**
 * Seeds spaces into an organization for bench/run.js by appending their events through the domain, from a
 * process of its own while the service runs on the same DATA_DIR (the service picks the appends up by polling,
 * as it does for the CLI's).
 *
 * Usage: DATA_DIR=… node bench/seed-spaces.js <organizationId> <userId> <count>
 *
 * Each space goes through `createSpace` of the built code (dist/): a `CreateRevision` command on a new revision
 * stream, then a `CreateSpace` command on a new space stream, each decided and appended by `handleCommand` in
 * its own append, exactly as POST /v1/orgs/{id}/spaces does after its access check. The only shortcut is the
 * sort key: it is passed (0, 1, 2, …) instead of being read from the read model, which lags behind a writer in
 * another process. Prints one JSON line: `{ count, seconds, events }`.
 */
require('reflect-metadata');
const { createEventStore } = require('../dist/libs/event-store/src');
const { createReadStore } = require('../dist/libs/read-store/src');
const { metadataFor, systemClock } = require('../dist/libs/kernel/src');
const { createSpace } = require('../dist/libs/content/src/application/create-space/create-space.command');
const { loadConfig } = require('../dist/apps/api/src/config');

async function main() {
  const [organizationId, userId, countArgument] = process.argv.slice(2);
  const count = Number(countArgument);
  if (!organizationId || !userId || !Number.isInteger(count) || count < 1) {
    throw new Error('usage: DATA_DIR=… node bench/seed-spaces.js <organizationId> <userId> <count>');
  }
  const config = loadConfig();
  const events = await createEventStore(config.eventStore);
  const reads = await createReadStore(config.readStore);
  try {
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) {
      await createSpace(events, reads, metadataFor(systemClock, userId), {
        organizationId,
        title: `Bench space ${i + 1}`,
        parent: null,
        sortKey: i,
      });
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(JSON.stringify({ count, seconds: Number(seconds.toFixed(2)), events: 2 * count }));
  } finally {
    await reads.close();
    await events.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
