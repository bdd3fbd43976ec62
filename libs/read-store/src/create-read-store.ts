import { type ReadStore } from '@app/kernel';
import { MongoReadStore } from './mongo-read-store';
import { SqliteReadStore } from './sqlite-read-store';

/** Which read store runs: the embedded SQLite file or a MongoDB server. */
export type ReadStoreOptions =
  { driver: 'sqlite'; file: string; backgroundCheckpoints?: boolean } | { driver: 'mongodb'; url: string };

/**
 * Opens the configured read store. The SQLite file and its folder are created when missing, readable by this user only; a MongoDB server is pinged
 * so that a wrong URL fails at start-up rather than on the first request.
 */
export async function createReadStore(options: ReadStoreOptions): Promise<ReadStore> {
  switch (options.driver) {
    case 'sqlite':
      return new SqliteReadStore({ file: options.file, backgroundCheckpoints: options.backgroundCheckpoints });
    case 'mongodb': {
      const store = new MongoReadStore({ url: options.url });
      try {
        await store.ping();
      } catch (error) {
        await store.close().catch(() => undefined);
        throw new Error(`cannot reach the MongoDB read store: ${(error as Error).message ?? String(error)}`, {
          cause: error,
        });
      }
      return store;
    }
    default: {
      const driver = (options as { driver?: unknown }).driver;
      throw new Error(`unknown read store driver ${String(driver)} (expected sqlite or mongodb)`);
    }
  }
}
