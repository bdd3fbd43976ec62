export { SearchIndexModule } from './search-index.module';
export { createSearchIndex, type SearchIndexOptions } from './create-search-index';
export { SEARCH_FORMAT, SqliteSearchIndex, type SqliteSearchIndexOptions } from './sqlite-search-index';
// The MongoDB driver itself is loaded only when a MongoSearchIndex is made.
export { MongoSearchIndex, type MongoSearchIndexOptions } from './mongo-search-index';
export { parseQuery, MIN_PREFIX, MAX_TERMS, type SearchTerm } from './query-text';
