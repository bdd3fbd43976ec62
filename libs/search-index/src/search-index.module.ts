import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { SEARCH_INDEX, type SearchIndex } from '@app/kernel';
import { type SearchIndexOptions, createSearchIndex } from './create-search-index';

/** Closes the index when the application shuts down (the search projection stops before that). */
@Injectable()
class SearchIndexCloser implements OnApplicationShutdown {
  constructor(@Inject(SEARCH_INDEX) private readonly index: SearchIndex) {}

  async onApplicationShutdown(): Promise<void> {
    await this.index.close();
  }
}

/** Provides `SEARCH_INDEX` to the whole application, with the adapter chosen by `driver`. */
@Global()
@Module({})
export class SearchIndexModule {
  static forRoot(options: SearchIndexOptions): DynamicModule {
    return {
      module: SearchIndexModule,
      providers: [{ provide: SEARCH_INDEX, useFactory: () => createSearchIndex(options) }, SearchIndexCloser],
      exports: [SEARCH_INDEX],
    };
  }
}
