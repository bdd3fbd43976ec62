import { type EventStore } from '@app/kernel';
import { SqliteEventStore } from './sqlite-event-store';

/** Which event store runs: the embedded SQLite file or an EventStoreDB server. */
export type EventStoreOptions =
  | { driver: 'sqlite'; file: string; pollIntervalMs?: number; backgroundCheckpoints?: boolean }
  | { driver: 'eventstoredb'; connectionString: string };

/** Opens the configured event store; the SQLite file and its folder are created when missing, readable by this user only. */
export async function createEventStore(options: EventStoreOptions): Promise<EventStore> {
  switch (options.driver) {
    case 'sqlite': {
      return new SqliteEventStore({
        file: options.file,
        pollIntervalMs: options.pollIntervalMs,
        backgroundCheckpoints: options.backgroundCheckpoints,
      });
    }
    case 'eventstoredb': {
      // loaded only when chosen: the embedded default never pays for the gRPC client
      const { EventStoreDbEventStore } = await import('./eventstoredb-event-store');
      return new EventStoreDbEventStore({ connectionString: options.connectionString });
    }
    default: {
      const driver = (options as { driver?: unknown }).driver;
      throw new Error(`unknown event store driver ${String(driver)} (expected sqlite or eventstoredb)`);
    }
  }
}
