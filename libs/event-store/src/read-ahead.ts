import { MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import {
  type BackgroundWorker,
  type EventMetadata,
  type RecordedEvent,
  startBackgroundWorker,
  stopBackgroundWorker,
} from '@app/kernel';
import { type EventTuple, recordedEventOf } from './event-row';

/**
 * What the worker posts: 'ready' once its connection is open, then one reply per request. A page comes as one JSON
 * text of its rows, in UTF-8, put together by SQLite from the stored texts (`data` and `metadata` are JSON already):
 * the event loop's part of a page is then one decode and one `JSON.parse`, instead of a row array and two parses
 * per event.
 */
type WorkerMessage = 'ready' | WorkerReply;
type WorkerReply = { id: number; bytes: Uint8Array | null } | { id: number; error: string };

/**
 * The worker's code, plain JavaScript so that it runs the same from the TypeScript sources (tests) and the build.
 * Its connection only reads: in WAL mode it never blocks the writer, and each page is read in one statement (one
 * snapshot). The text lists the rows in the order the subquery reads them, which is the global order, but SQLite
 * does not promise it for `group_concat`, so the event loop checks it (`group_concat(... ORDER BY position)` would
 * promise it, and cost the worker a third more). After each message it posts, the worker counts one more in the
 * shared `signal` and wakes the event loop if that waits for it.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { port, signal } = workerData;
const posted = (message, transfer) => {
  port.postMessage(message, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
};
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
const page = db.prepare(
  "SELECT CAST('[' || group_concat('[' || position || ',' || json_quote(stream_id) || ',' || revision || ',' || " +
    "json_quote(event_id) || ',' || json_quote(type) || ',' || data || ',' || metadata || ',' || " +
    "json_quote(recorded_at) || ']', ',') || ']' AS BLOB) " +
    'FROM (SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?)',
).pluck(true);
port.on('message', ({ id, after, limit }) => {
  let bytes;
  try {
    bytes = page.get(after, limit);
  } catch (error) {
    posted({ id, error: String((error && error.message) || error) }, []);
    return;
  }
  const own = bytes !== null && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  posted({ id, bytes }, own ? [bytes.buffer] : []);
});
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  if (db.open) db.close();
  port.close();
  parentPort.close();
});
posted('ready', []);
`;

/** A worker left without requests this long is stopped: it lives for a catch-up, not for the whole run. */
const IDLE_MS = 2000;
const STOP_TIMEOUT_MS = 2000;
/**
 * How long the event loop waits for a page it asked for before reading it itself. The worker reads a page in
 * about half the time the loop takes to project one, so it is normally there already.
 */
const WAIT_MS = 200;

export interface ReadAheadOptions {
  /** The event store's SQLite file. */
  file: string;
  /** The resolved path of better-sqlite3 (the worker loads the same driver). */
  driver: string;
  busyTimeoutMs: number;
}

/**
 * Reads pages of the global order in a worker thread (the machine's other core) for subscriptions far behind the
 * head: a replay or a rebuild. The event loop parses one page while the worker reads the next, instead of stepping
 * through every row itself, which was half the time of a replay.
 *
 * It is used synchronously, as the store's own reads are: `ask` posts a request, and `take` collects the answer
 * with `receiveMessageOnPort`, blocking (at most {@link WAIT_MS}) on a shared counter if the worker has not
 * answered yet. No turn of the event loop is needed, so a subscription read in a tight loop of microtasks (as a
 * replay is) gets its pages too.
 *
 * The worker starts on the first request and answers only once its connection is open (until then, and after any
 * failure, `ask` returns undefined and the caller reads its page itself); it stops after {@link IDLE_MS} without a
 * request. Read ahead or not, a subscription delivers the same events.
 */
export class ReadAhead {
  private background?: BackgroundWorker;
  private port?: MessagePort;
  /** [0]: messages the worker has posted (see WORKER_SOURCE). */
  private signal = new Int32Array(new SharedArrayBuffer(4));
  private online = false;
  private failed = false;
  private closed = false;
  private nextId = 0;
  /** Requests asked and not yet taken or forgotten: where their page starts, and their answer once received. */
  private readonly asked = new Map<number, { after: number; reply?: WorkerReply }>();
  private idleTimer?: NodeJS.Timeout;
  private readonly decoder = new TextDecoder();

  constructor(private readonly options: ReadAheadOptions) {}

  /** Asks for up to `limit` events after `after`: the id to take them with, or undefined if it cannot be asked now. */
  ask(after: bigint, limit: number): number | undefined {
    if (this.closed || this.failed) return undefined;
    this.keepAlive();
    if (!this.background) this.launch();
    if (!this.online) this.receive();
    if (!this.online || !this.port) return undefined;
    const id = (this.nextId += 1);
    this.asked.set(id, { after: Number(after) });
    this.port.postMessage({ id, after: Number(after), limit });
    return id;
  }

  /** The events asked for with `id`; undefined when the worker could not answer in time (read them yourself). */
  take(id: number): RecordedEvent[] | undefined {
    if (!this.asked.has(id)) return undefined;
    const deadline = performance.now() + WAIT_MS;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      this.receive();
      const request = this.asked.get(id);
      if (request?.reply) {
        this.asked.delete(id);
        return this.pageOf(request.reply, request.after);
      }
      const left = deadline - performance.now();
      if (this.failed || !this.port || left <= 0) {
        this.asked.delete(id);
        // a worker that does not answer in time is let go; the next request starts another
        if (left <= 0) void this.stop();
        return undefined;
      }
      Atomics.wait(this.signal, 0, seen, left);
    }
  }

  /**
   * Starts the worker now, if it is not running, and resolves once it answers requests: true, or false if it could
   * not start (then no request is ever answered) or was closed meanwhile.
   */
  async start(timeoutMs = 10_000): Promise<boolean> {
    if (this.closed || this.failed) return false;
    this.keepAlive();
    if (!this.background) this.launch();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.receive();
      if (this.online) return true;
      if (this.closed || this.failed || !this.background || Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Drops a request whose answer is no longer wanted. */
  forget(id: number): void {
    this.asked.delete(id);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private launch(): void {
    const { port1, port2 } = new MessageChannel();
    this.signal = new Int32Array(new SharedArrayBuffer(4));
    const background = startBackgroundWorker(WORKER_SOURCE, { ...this.options, port: port2, signal: this.signal }, [
      port2,
    ]);
    this.background = background;
    this.port = port1;
    background.worker.on('error', () => {
      // the pages asked for are read by their subscriptions instead, and no other worker is started
      this.failed = true;
    });
    void background.ended.then(() => {
      if (this.background !== background) return;
      this.background = undefined;
      this.port = undefined;
      this.online = false;
      port1.close();
    });
  }

  private async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const background = this.background;
    if (!background) return;
    this.background = undefined;
    this.port?.close();
    this.port = undefined;
    this.online = false;
    this.asked.clear();
    await stopBackgroundWorker(background, STOP_TIMEOUT_MS);
  }

  private keepAlive(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS);
    this.idleTimer.unref();
  }

  /** Collects what the worker has posted so far; answers no one waits for any more are dropped. */
  private receive(): void {
    if (!this.port) return;
    for (let received = receiveMessageOnPort(this.port); received; received = receiveMessageOnPort(this.port)) {
      const message = received.message as WorkerMessage;
      if (message === 'ready') this.online = true;
      else {
        const request = this.asked.get(message.id);
        if (request) request.reply = message;
      }
    }
  }

  /** The events of an answer; undefined when it is an error or not the rows it should be. */
  private pageOf(reply: WorkerReply, after: number): RecordedEvent[] | undefined {
    if ('error' in reply) {
      this.failed = true;
      return undefined;
    }
    if (reply.bytes === null) return [];
    let rows: unknown;
    try {
      rows = JSON.parse(this.decoder.decode(reply.bytes));
    } catch {
      this.failed = true;
      return undefined;
    }
    if (!Array.isArray(rows)) return undefined;
    const events: RecordedEvent[] = new Array(rows.length);
    let last = after;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index] as EventTuple<unknown>;
      // in the global order, after the position asked for, or the caller reads the page itself
      if (!(row[0] > last)) return undefined;
      last = row[0];
      events[index] = recordedEventOf(row, row[5] as RecordedEvent['data'], row[6] as EventMetadata);
    }
    return events;
  }
}
