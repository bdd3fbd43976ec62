import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@app/kernel';
import { createReadStore, type ReadStoreOptions } from './create-read-store';

/** Closes the store when the application shuts down (the runtime stops its runners before that). */
@Injectable()
class ReadStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * Provides `READ_STORE` to the whole application, with the adapter chosen by `driver`. The service runs for long:
 * a SQLite file is checkpointed in the background.
 */
@Global()
@Module({})
export class ReadStoreModule {
  static forRoot(options: ReadStoreOptions): DynamicModule {
    return {
      module: ReadStoreModule,
      providers: [{ provide: READ_STORE, useFactory: () => createReadStore(inService(options)) }, ReadStoreCloser],
      exports: [READ_STORE],
    };
  }
}

function inService(options: ReadStoreOptions): ReadStoreOptions {
  return options.driver === 'sqlite' ? { backgroundCheckpoints: true, ...options } : options;
}
