import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { KEY_STORE, type KeyStore } from '@app/kernel';
import { type KeyStoreOptions, createKeyStore } from './create-key-store';

/** Closes the store when the application shuts down (the runtime stops its runners before that). */
@Injectable()
class KeyStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(KEY_STORE) private readonly store: KeyStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** Provides `KEY_STORE` to the whole application, with the adapter chosen by `driver`. */
@Global()
@Module({})
export class KeyStoreModule {
  static forRoot(options: KeyStoreOptions): DynamicModule {
    return {
      module: KeyStoreModule,
      providers: [{ provide: KEY_STORE, useFactory: () => createKeyStore(options) }, KeyStoreCloser],
      exports: [KEY_STORE],
    };
  }
}
