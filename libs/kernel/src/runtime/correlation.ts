import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id of the work under way (an HTTP request's id, a CLI run's): every command issued within it
 * records the id in its events' metadata, so a subscriber can tell which events one request produced, across
 * streams. Processes carry it on from the event that triggered them.
 */
const current = new AsyncLocalStorage<string>();

/** Runs `work`, and everything it starts, with this correlation id. */
export function withCorrelation<T>(correlationId: string, work: () => T): T {
  return current.run(correlationId, work);
}

/** The correlation id of the work under way, if any. */
export function currentCorrelationId(): string | undefined {
  return current.getStore();
}
