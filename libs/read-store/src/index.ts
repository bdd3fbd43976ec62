export { ReadStoreModule } from './read-store.module';
export { createReadStore, type ReadStoreOptions } from './create-read-store';
export { SqliteReadStore, type SqliteReadStoreOptions } from './sqlite-read-store';
// The MongoDB driver itself is loaded only when a MongoReadStore is made.
export { MongoReadStore, type MongoReadStoreOptions } from './mongo-read-store';
