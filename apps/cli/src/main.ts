import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { createEventStore } from '@app/event-store';
import { ERASURE_READ_MODELS, bootstrap, eraseUser } from '@app/identity';
import {
  DomainError,
  type EventStore,
  type GlobalPosition,
  type ReadStore,
  PROJECTION_REBUILD_REQUESTED,
  type ProjectionRebuildRequested,
  type RebuildState,
  type RecordedEvent,
  START,
  positionFromString,
  positionToString,
  requestProjectionRebuild,
  systemClock,
} from '@app/kernel';
import { createKeyStore } from '@app/key-store';
import { createReadStore } from '@app/read-store';
import { ConfigError, loadConfig, type AppConfig } from '../../api/src/config';

const USAGE = `Quire operator CLI

Usage:
  npm run -s cli -- bootstrap --email <email> [--name <display name>] [--org <title>] [--json]
      Creates the user if needed (and the organization, with the user as admin) and prints a new API token.
  npm run -s cli -- projections status [--json]
      Checkpoint, lag and parked events of every projection (works while the server runs).
  npm run -s cli -- projections rebuild (<name>... | --all) [--wait] [--timeout <seconds>] [--json]
      Asks the service to replay a projection's read model from the first event, aside, and put the result in
      service when it has caught up. The request is recorded in the event store: a running service starts at
      once, a stopped one when it next starts. --wait waits (120 s unless --timeout says otherwise) until every
      named projection is rebuilt and in service.
  npm run -s cli -- events tail [--after <position>] [--limit <n>] [--follow]
      Prints events of the global order as JSON lines.
  npm run -s cli -- users erase <userId> [--timeout <seconds>] [--json]
      Erases a person: they leave their organizations, their keys are destroyed (their name, email and token
      labels can no longer be read anywhere), their address is released and their tokens are revoked. Refused
      while they are the last admin of an organization. Then waits (30 s unless --timeout says otherwise; 0 does
      not wait) until the running service shows it.

Configuration comes from the same environment variables as the server (see README.md).`;

async function main(argv: string[]): Promise<number> {
  const [command, subcommand] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  switch (command) {
    case 'bootstrap':
      return runBootstrap(config, argv.slice(1));
    case 'projections':
      if (subcommand === 'status') return projectionsStatus(config, argv.slice(2));
      if (subcommand === 'rebuild') return projectionsRebuild(config, argv.slice(2));
      break;
    case 'events':
      if (subcommand === 'tail') return tailEvents(config, argv.slice(2));
      break;
    case 'users':
      if (subcommand === 'erase') return eraseUserCommand(config, argv.slice(2));
      break;
  }
  console.error(`Unknown command: ${argv.join(' ')}\n\n${USAGE}`);
  return 2;
}

async function runBootstrap(config: AppConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) {
    console.error('bootstrap needs --email <a valid email address>');
    return 2;
  }
  if (values.org !== undefined && (values.org.trim().length < 2 || values.org.length > 255)) {
    console.error('--org must be a title of 2 to 255 characters');
    return 2;
  }
  const store = await createEventStore(config.eventStore);
  const keys = await createKeyStore(config.keyStore);
  try {
    const result = await bootstrap(store, keys, systemClock, {
      email: values.email,
      name: values.name,
      organizationTitle: values.org,
    });
    const line = { userId: result.userId, token: result.token, organizationId: result.organizationId };
    if (values.json) {
      console.log(JSON.stringify(line));
    } else {
      console.log(`${result.createdUser ? 'Created' : 'Found'} user ${result.userId} (${values.email})`);
      if (result.organizationId) console.log(`Created organization ${result.organizationId}`);
      console.log(`API token (shown once, keep it secret):\n  ${result.token}`);
      console.log(`Try: curl -H "Authorization: Bearer ${result.token}" ${config.publicUrl}/v1/user`);
    }
    return 0;
  } finally {
    await store.close();
    await keys.close();
  }
}

async function eraseUserCommand(config: AppConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { timeout: { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  if (positionals.length !== 1 || !/^[A-Za-z0-9_-]{1,64}$/.test(positionals[0])) {
    console.error('users erase needs one user id');
    return 2;
  }
  const timeoutSeconds = values.timeout === undefined ? 30 : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) {
    console.error('--timeout must be a number of seconds (0: do not wait)');
    return 2;
  }
  const events = await createEventStore(config.eventStore);
  const reads = await createReadStore(config.readStore);
  const keys = await createKeyStore(config.keyStore);
  try {
    let result;
    try {
      result = await eraseUser({ events, reads, keys }, systemClock, positionals[0]);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      console.error(`Not erased: ${error.message}`);
      return 1;
    }
    const report: Record<string, unknown> = {
      userId: result.userId,
      erased: result.erased,
      organizations: result.organizations,
      position: result.position === null ? null : positionToString(result.position),
    };
    if (timeoutSeconds > 0 && result.position !== null) {
      report.applied = await waitForProjections(reads, ERASURE_READ_MODELS, result.position, timeoutSeconds * 1000);
      if (report.applied === false) {
        console.error(
          `The erasure is recorded and the keys are destroyed, but no running service applied it within ` +
            `${timeoutSeconds} s (its tokens work until one does); a stopped service applies it when it next starts.`,
        );
      }
    }
    if (values.json) console.log(JSON.stringify(report));
    else if (!result.erased) console.log(`User ${result.userId} was already erased (keys destroyed again)`);
    else {
      console.log(`Erased user ${result.userId}`);
      if (result.organizations.length > 0) console.log(`Left organizations: ${result.organizations.join(', ')}`);
    }
    return 0;
  } finally {
    await events.close();
    await reads.close();
    await keys.close();
  }
}

/** Whether the named projections (those that have run) reached `position` before the time ran out. */
async function waitForProjections(
  reads: ReadStore,
  names: readonly string[],
  position: GlobalPosition,
  timeoutMs: number,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let pending = 0;
    for (const name of names) {
      const checkpoint = await reads.getCheckpoint(PROJECTION_PREFIX + name);
      if (checkpoint !== null && checkpoint.position < position) pending++;
    }
    if (pending === 0) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PROJECTION_PREFIX = 'projection:';

async function projectionsRebuild(config: AppConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.all === positionals.length > 0) {
    console.error('projections rebuild needs projection names or --all (not both)');
    return 2;
  }
  const timeoutSeconds = values.timeout === undefined ? 120 : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    console.error('--timeout must be a positive number of seconds');
    return 2;
  }
  const events: EventStore = await createEventStore(config.eventStore);
  const reads: ReadStore = await createReadStore(config.readStore);
  try {
    // The projections the service has run are the ones with a checkpoint; one never run has nothing to rebuild.
    const known = (await reads.listCheckpoints())
      .map((checkpoint) => checkpoint.name)
      .filter((name) => name.startsWith(PROJECTION_PREFIX))
      .map((name) => name.slice(PROJECTION_PREFIX.length));
    const names = [...new Set(positionals.map((name) => name.replace(/^projection:/, '')))];
    const unknown = names.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      console.error(`Unknown projection: ${unknown.join(', ')} (known: ${known.join(', ') || 'none has run yet'})`);
      return 2;
    }
    const targets = values.all ? known : names;
    const position = await requestProjectionRebuild(events, systemClock, values.all ? 'all' : names, 'cli');
    const report: Record<string, unknown> = { requested: targets, position: positionToString(position) };
    if (values.wait) {
      const started = Date.now();
      const done = await waitForRebuilds(reads, targets, position, timeoutSeconds * 1000);
      report.rebuilt = done;
      report.seconds = Number(((Date.now() - started) / 1000).toFixed(2));
      if (!done) {
        console.error(
          `The request is recorded (position ${report.position as string}), but no running service finished it ` +
            `within ${timeoutSeconds} s; a stopped service carries it out when it next starts.`,
        );
      }
    }
    if (values.json) console.log(JSON.stringify(report));
    else if (report.rebuilt === true) console.log(`Rebuilt ${targets.join(', ')} in ${String(report.seconds)} s`);
    else if (report.rebuilt === undefined) {
      console.log(`Requested a rebuild of ${targets.join(', ')} at position ${report.position as string}`);
    }
    return report.rebuilt === false ? 1 : 0;
  } finally {
    await events.close();
    await reads.close();
  }
}

/** Whether every projection replayed past the request from a fresh start before the time ran out. */
async function waitForRebuilds(
  reads: ReadStore,
  names: string[],
  request: GlobalPosition,
  timeoutMs: number,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let pending = 0;
    for (const name of names) {
      const checkpoint = await reads.getCheckpoint(PROJECTION_PREFIX + name);
      const rebuiltFor = (checkpoint?.state as { rebuiltFor?: string } | undefined)?.rebuiltFor;
      const done =
        checkpoint !== null &&
        checkpoint.position >= request &&
        rebuiltFor !== undefined &&
        positionFromString(rebuiltFor) >= request;
      if (!done) pending++;
    }
    if (pending === 0) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function projectionsStatus(config: AppConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } }, strict: true });
  const events: EventStore = await createEventStore(config.eventStore);
  const reads: ReadStore = await createReadStore(config.readStore);
  try {
    const head = await events.headPosition();
    const checkpoints = await reads.listCheckpoints();
    const rows = [];
    for (const checkpoint of checkpoints) {
      const behind = await events.readAll({ after: checkpoint.position, maxCount: 10_001 });
      const state = (checkpoint.state ?? {}) as { version?: number; parked?: unknown[]; rebuild?: RebuildState };
      rows.push({
        name: checkpoint.name,
        version: state.version ?? null,
        checkpoint: checkpoint.position === START ? null : positionToString(checkpoint.position),
        lag: behind.length > 10_000 ? '10000+' : behind.length,
        parked: state.parked?.length ?? 0,
        rebuild: rebuildOf(checkpoint.name, state.rebuild, behind),
      });
    }
    if (values.json) console.log(JSON.stringify({ head: positionToString(head), projections: rows }));
    else {
      console.log(`event store head: ${head === START ? '(empty)' : positionToString(head)}`);
      console.table(
        rows.map(({ rebuild, ...row }) => ({
          ...row,
          rebuild: rebuild ? `${rebuild.state} (asked at ${rebuild.position})` : '',
        })),
      );
    }
    return 0;
  } finally {
    await events.close();
    await reads.close();
  }
}

/**
 * The last rebuild asked of a projection: what its checkpoint records (pending or running ones are carried out,
 * again, by the next service to start), or a request stored after its checkpoint that no service has read yet.
 */
function rebuildOf(
  checkpointName: string,
  recorded: RebuildState | undefined,
  behind: readonly RecordedEvent[],
): (Omit<RebuildState, 'head'> & { head: string | null }) | null {
  const name = checkpointName.slice(PROJECTION_PREFIX.length);
  const unread = behind.filter((event) => {
    if (event.type !== PROJECTION_REBUILD_REQUESTED) return false;
    const wanted = (event.data as unknown as ProjectionRebuildRequested).projections;
    return wanted === 'all' || (Array.isArray(wanted) && wanted.includes(name));
  });
  if (unread.length > 0 && recorded?.state !== 'running') {
    return { state: 'pending', position: positionToString(unread[unread.length - 1].position), head: null };
  }
  return recorded ? { head: null, ...recorded } : null;
}

async function tailEvents(config: AppConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      after: { type: 'string' },
      limit: { type: 'string', default: '100' },
      follow: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const store = await createEventStore(config.eventStore);
  const after = values.after === undefined ? START : positionFromString(values.after);
  const print = (event: Awaited<ReturnType<EventStore['readAll']>>[number]) =>
    console.log(JSON.stringify({ ...event, position: positionToString(event.position) }));
  try {
    if (!values.follow) {
      for (const event of await store.readAll({ after, maxCount: Number(values.limit) })) print(event);
      return 0;
    }
    const subscription = store.subscribeToAll({ after });
    process.once('SIGINT', () => void subscription.close());
    for await (const batch of subscription) batch.forEach(print);
    return 0;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : error);
    process.exit(1);
  });
