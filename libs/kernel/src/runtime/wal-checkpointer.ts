import { startBackgroundWorker, stopBackgroundWorker } from './background-worker';

/** The writing connection, as the checkpointer needs it (a better-sqlite3 `Database` is one). */
export interface WritingConnection {
  readonly open: boolean;
  pragma(source: string): unknown;
}

export interface WalCheckpointerOptions {
  /** The SQLite database file (in WAL mode). */
  file: string;
  /** The connection that writes: its own checkpoints become a fallback while the worker runs. */
  connection: WritingConnection;
  /** The resolved path of the SQLite driver (`require.resolve('better-sqlite3')`): the kernel does not load it. */
  driver: string;
  /** How often the worker copies the write-ahead log into the database file; 50 ms by default. */
  intervalMs?: number;
  /**
   * Told when the worker stopped on its own (it could not open the file, or checkpoints kept failing); the writing
   * connection is back on SQLite's default limit by then.
   */
  onFailure?: (message: string) => void;
}

export interface WalCheckpointer {
  /** Stops the worker (its connection closed); resolves once it has ended. */
  stop(): Promise<void>;
}

/**
 * The worker's code, plain JavaScript so that it runs the same from the TypeScript sources (tests) and the build.
 * A passive checkpoint never waits for, nor blocks, the writers and readers of other connections.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
db.pragma('synchronous = NORMAL');
let failures = 0;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (error) {
    if (error && error.code === 'SQLITE_BUSY') return;
    if (++failures < 3) return;
    clearInterval(timer);
    db.close();
    throw error;
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  if (db.open) db.close();
  parentPort.close();
});
`;

/**
 * Short, so that the log stays small: the writer then overwrites blocks of the log file it wrote before (the log
 * starts again from its beginning once everything in it is copied), and its index in the -shm file stays a page or
 * two. At 200 ms the log grew to thousands of frames between checkpoints and single-event appends ran 11.3k/s
 * against 12.8k at 50 ms and 13.2k at 25 ms (bench/stores.js' loop, median of 5 rounds). A checkpoint with
 * nothing to copy only reads the log's header, so an idle store pays next to nothing for it.
 */
const DEFAULT_INTERVAL_MS = 50;
const STOP_TIMEOUT_MS = 2000;

/**
 * Checkpoints a SQLite database's write-ahead log from a worker thread, on a connection of its own. Left to the
 * connection that writes, a checkpoint runs inside the commit that crosses the log's size limit and waits for two
 * fsyncs there: on the event loop, where every request then waits with it (a single-row commit took 140–230 µs
 * with it and 80–90 µs without on a 2-core VM). The writing connection keeps a much larger limit as a fallback
 * (see `FALLBACK_AUTOCHECKPOINT_PAGES`), used only if this worker falls behind or stops.
 */
export function startWalCheckpointer(options: WalCheckpointerOptions): WalCheckpointer {
  const { connection } = options;
  connection.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const background = startBackgroundWorker(WORKER_SOURCE, {
    file: options.file,
    driver: options.driver,
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
  });
  let stopping = false;
  background.worker.on('error', (error: Error) => {
    if (stopping) return;
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    options.onFailure?.(`background checkpoints of ${options.file} stopped: ${error.message}`);
  });
  return {
    async stop() {
      if (stopping) return background.ended;
      stopping = true;
      // waited for: the process stays up until the worker has closed its connection
      await stopBackgroundWorker(background, STOP_TIMEOUT_MS);
    },
  };
}

/**
 * The log size (in pages) at which a writing connection checkpoints by itself while a worker does it: about 80 MB,
 * reached only if the worker falls far behind. SQLite's own default is 1,000 pages.
 */
const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;
/** SQLite's default, restored on a writing connection whose worker stopped. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
