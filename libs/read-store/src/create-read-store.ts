import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type ReadStore } from '@app/kernel';
import { MongoReadStore } from './mongo-read-store';
import { SqliteReadStore } from './sqlite-read-store';

/** Which read store runs: the embedded SQLite file or a MongoDB server. */
export type ReadStoreOptions = { driver: 'sqlite'; file: string } | { driver: 'mongodb'; url: string };

/**
 * Opens the configured read store. The SQLite file's folder is created when missing; a MongoDB server is pinged
 * so that a wrong URL fails at start-up rather than on the first request.
 */
export async function createReadStore(options: ReadStoreOptions): Promise<ReadStore> {
  switch (options.driver) {
    case 'sqlite':
      if (options.file !== ':memory:' && options.file !== '') {
        mkdirSync(dirname(resolve(options.file)), { recursive: true });
      }
      return new SqliteReadStore({ file: options.file });
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
