export { KeyStoreModule } from './key-store.module';
export { createKeyStore, type KeyStoreOptions } from './create-key-store';
export { SqliteKeyStore, type SqliteKeyStoreOptions } from './sqlite-key-store';
// The MongoDB driver itself is loaded only when a MongoKeyStore is made.
export { MongoKeyStore, type MongoKeyStoreOptions } from './mongo-key-store';
