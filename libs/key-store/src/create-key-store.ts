import { type KeyStore } from '@app/kernel';
import { MongoKeyStore } from './mongo-key-store';
import { SqliteKeyStore } from './sqlite-key-store';

/** Which key store runs: the embedded SQLite file or a MongoDB collection. */
export type KeyStoreOptions = { driver: 'sqlite'; file: string } | { driver: 'mongodb'; url: string };

/**
 * Opens the configured key store. The SQLite file and its folder are created readable by this user only; a
 * MongoDB server is pinged so that a wrong URL fails at start-up rather than on the first request.
 */
export async function createKeyStore(options: KeyStoreOptions): Promise<KeyStore> {
  switch (options.driver) {
    case 'sqlite':
      return new SqliteKeyStore({ file: options.file });
    case 'mongodb': {
      const store = new MongoKeyStore({ url: options.url });
      try {
        await store.ping();
      } catch (error) {
        await store.close().catch(() => undefined);
        throw new Error(`cannot reach the MongoDB key store: ${(error as Error).message ?? String(error)}`, {
          cause: error,
        });
      }
      return store;
    }
    default: {
      const driver = (options as { driver?: unknown }).driver;
      throw new Error(`unknown key store driver ${String(driver)} (expected sqlite or mongodb)`);
    }
  }
}
