import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@app/kernel';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { GridFsBlobStore } from './gridfs-blob-store';

/** Which blob store runs: files under a directory, or a GridFS bucket in a MongoDB database. */
export type BlobStoreOptions =
  { driver: 'files'; directory: string } | { driver: 'mongodb'; url: string; serverSelectionTimeoutMs?: number };

/** Opens the configured blob store; a MongoDB server is pinged so that a wrong URL fails at start-up. */
export async function createBlobStore(options: BlobStoreOptions): Promise<BlobStore> {
  switch (options.driver) {
    case 'files':
      return new FilesystemBlobStore(options.directory);
    case 'mongodb': {
      const store = new GridFsBlobStore({
        url: options.url,
        serverSelectionTimeoutMs: options.serverSelectionTimeoutMs,
      });
      try {
        await store.ping();
      } catch (error) {
        await store.close().catch(() => undefined);
        throw new Error(`cannot reach the MongoDB blob store: ${(error as Error).message ?? String(error)}`, {
          cause: error,
        });
      }
      return store;
    }
    default: {
      const driver = (options as { driver?: unknown }).driver;
      throw new Error(`unknown blob store driver ${String(driver)} (expected files or mongodb)`);
    }
  }
}

/** Closes the store (a MongoDB connection) when the application shuts down. */
@Injectable()
class BlobStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(BLOB_STORE) private readonly store: BlobStore) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.store instanceof GridFsBlobStore) await this.store.close();
  }
}

/** Provides `BLOB_STORE` to the whole application, with the adapter chosen by `driver`. */
@Global()
@Module({})
export class BlobStoreModule {
  static forRoot(options: BlobStoreOptions): DynamicModule {
    return {
      module: BlobStoreModule,
      providers: [{ provide: BLOB_STORE, useFactory: () => createBlobStore(options) }, BlobStoreCloser],
      exports: [BLOB_STORE],
    };
  }
}
