import { type Transferable, Worker } from 'node:worker_threads';

/** A worker thread doing background work: it never keeps the process alive by itself. */
export interface BackgroundWorker {
  readonly worker: Worker;
  /** Settles when the thread has ended (known from its start, so a stop after the end returns at once). */
  readonly ended: Promise<void>;
}

/**
 * Starts `source` (plain JavaScript, run with `eval`) in a thread that does not keep the process alive; what
 * `transferList` names (a `MessagePort` in `workerData`, say) is moved to the thread, not copied.
 */
export function startBackgroundWorker(
  source: string,
  workerData: unknown,
  transferList: readonly Transferable[] = [],
): BackgroundWorker {
  const worker = new Worker(source, { eval: true, workerData, transferList: [...transferList] });
  worker.unref();
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return { worker, ended };
}

/**
 * Asks a background worker to stop (a `'stop'` message, which it handles between two steps of its work), keeps the
 * process up until it has ended, and ends it by force after `timeoutMs`.
 */
export async function stopBackgroundWorker({ worker, ended }: BackgroundWorker, timeoutMs: number): Promise<void> {
  worker.ref();
  worker.postMessage('stop');
  const timer = setTimeout(() => void worker.terminate(), timeoutMs);
  await ended;
  clearTimeout(timer);
}
