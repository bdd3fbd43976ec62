import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@app/kernel';
import { createEventStore, type EventStoreOptions } from './create-event-store';

/**
 * Closes the store when the application shuts down. Global modules shut down in the reverse order of their
 * registration: register this module before the runtime so the runners stop before the store closes.
 */
@Injectable()
class EventStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * Provides `EVENT_STORE` to the whole application, with the adapter chosen by `driver`. The service runs for long:
 * a SQLite file is checkpointed in the background.
 */
@Global()
@Module({})
export class EventStoreModule {
  static forRoot(options: EventStoreOptions): DynamicModule {
    return {
      module: EventStoreModule,
      providers: [{ provide: EVENT_STORE, useFactory: () => createEventStore(inService(options)) }, EventStoreCloser],
      exports: [EVENT_STORE],
    };
  }
}

function inService(options: EventStoreOptions): EventStoreOptions {
  return options.driver === 'sqlite' ? { backgroundCheckpoints: true, ...options } : options;
}
