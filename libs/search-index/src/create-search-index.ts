import { type SearchIndex } from '@app/kernel';
import { MongoSearchIndex } from './mongo-search-index';
import { SqliteSearchIndex } from './sqlite-search-index';

/** Which search index runs: the embedded SQLite FTS5 file or a MongoDB text index. */
export type SearchIndexOptions = { driver: 'sqlite'; file: string } | { driver: 'mongodb'; url: string };

/**
 * Opens the configured search index. The SQLite file and its folder are created readable by this user only; a
 * MongoDB server is pinged so that a wrong URL fails at start-up rather than on the first search.
 */
export async function createSearchIndex(options: SearchIndexOptions): Promise<SearchIndex> {
  switch (options.driver) {
    case 'sqlite':
      return new SqliteSearchIndex({ file: options.file });
    case 'mongodb': {
      const index = new MongoSearchIndex({ url: options.url });
      try {
        await index.ping();
      } catch (error) {
        await index.close().catch(() => undefined);
        throw new Error(`cannot reach the MongoDB search index: ${(error as Error).message ?? String(error)}`, {
          cause: error,
        });
      }
      return index;
    }
    default: {
      const driver = (options as { driver?: unknown }).driver;
      throw new Error(`unknown search index driver ${String(driver)} (expected sqlite or mongodb)`);
    }
  }
}
