import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BlobStoreModule } from '@app/blob-store';
import { SafeFetcher, parseAllowlist } from '@app/fetcher';
import { EventStoreModule } from '@app/event-store';
import { ContentModule } from '@app/content';
import { IdentityModule, SAML_SIGNING_KEY } from '@app/identity';
import {
  FETCHER,
  type Clock,
  PAGE_CURSORS,
  PUBLIC_URLS,
  PageCursorCodec,
  RuntimeModule,
  SECRET_BOX,
  SecretBox,
  URL_SIGNER,
  UrlSigner,
} from '@app/kernel';
import { ReadStoreModule } from '@app/read-store';
import { SearchIndexModule } from '@app/search-index';
import { KeyStoreModule } from '@app/key-store';
import { ReviewModule } from '@app/review';
import { PublishingModule, SITES_URL } from '@app/publishing';
import { ExtensibilityModule } from '@app/extensibility';
import { DEFAULT_RETRY_POLICY, FEED_STREAM_OPTIONS, SubscriptionsModule, WEBHOOK_SETTINGS } from '@app/subscriptions';
import { type AppConfig } from './config';
import { HealthController } from './health.controller';

export const APP_CONFIG = Symbol('APP_CONFIG');

export interface AppOverrides {
  /** A clock tests can move (the restore window, deadlines). */
  clock?: Clock;
  /** Run projections and processes in this process (default true). */
  runProjections?: boolean;
}

/** The composition root: the only place that chooses adapters. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, overrides: AppOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        CqrsModule.forRoot(),
        EventStoreModule.forRoot(config.eventStore),
        ReadStoreModule.forRoot(config.readStore),
        SearchIndexModule.forRoot(config.searchIndex),
        KeyStoreModule.forRoot(config.keyStore),
        BlobStoreModule.forRoot(config.blobStore),
        RuntimeModule.forRoot({
          runProjections: overrides.runProjections ?? true,
          settleTimeoutMs: config.settleTimeoutMs,
          clock: overrides.clock,
        }),
        IdentityModule,
        ContentModule,
        ReviewModule,
        PublishingModule,
        ExtensibilityModule,
        SubscriptionsModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: PAGE_CURSORS, useValue: new PageCursorCodec(config.cursorSecret) },
        { provide: PUBLIC_URLS, useValue: { api: `${config.publicUrl}/v1`, app: config.appUrl } },
        { provide: SITES_URL, useValue: config.sitesUrl },
        { provide: SAML_SIGNING_KEY, useValue: config.samlSigningKey },
        { provide: URL_SIGNER, useValue: new UrlSigner(config.cursorSecret) },
        { provide: SECRET_BOX, useValue: new SecretBox(config.secretsKey) },
        { provide: FEED_STREAM_OPTIONS, useValue: config.feed },
        {
          provide: WEBHOOK_SETTINGS,
          useValue: { allowlist: parseAllowlist(config.fetch.allowlist), retry: DEFAULT_RETRY_POLICY },
        },
        {
          provide: FETCHER,
          useValue: new SafeFetcher({
            timeoutMs: config.fetch.timeoutMs,
            maxBytes: config.fetch.maxBytes,
            allowlist: parseAllowlist(config.fetch.allowlist),
          }),
        },
      ],
      exports: [
        PAGE_CURSORS,
        PUBLIC_URLS,
        SITES_URL,
        SAML_SIGNING_KEY,
        APP_CONFIG,
        URL_SIGNER,
        FETCHER,
        SECRET_BOX,
        FEED_STREAM_OPTIONS,
        WEBHOOK_SETTINGS,
      ],
    };
  }
}
