import { type SearchIndex } from '@app/kernel';
import { SqliteSearchIndex } from './sqlite-search-index';

/** Which search index runs: the embedded SQLite FTS5 file (a MongoDB text index is the production choice). */
export type SearchIndexOptions = { driver: 'sqlite'; file: string };

/** Opens the configured search index; the SQLite file and its folder are created readable by this user only. */
export function createSearchIndex(options: SearchIndexOptions): Promise<SearchIndex> {
  switch (options.driver) {
    case 'sqlite':
      return Promise.resolve(new SqliteSearchIndex({ file: options.file }));
    default: {
      const driver = (options as { driver?: unknown }).driver;
      throw new Error(`unknown search index driver ${String(driver)} (expected sqlite)`);
    }
  }
}
