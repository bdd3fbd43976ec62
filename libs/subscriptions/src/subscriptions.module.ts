import { Module, type OnModuleInit } from '@nestjs/common';
import { PUBLIC_EVENT_MAPPERS, PUBLIC_EVENT_SOURCE, RuntimeRegistry } from '@app/kernel';
import { IdentityModule } from '@app/identity';
import { ContentModule } from '@app/content';
import { ListEventSchemasController } from './application/list-event-schemas/list-event-schemas.http';
import { ProjectedPublicEvents } from './application/projected-public-events';
import { FeedStreams } from './application/read-feed/event-stream';
import { OrganizationFeed } from './application/read-feed/organization-feed';
import { ReadFeedController } from './application/read-feed/read-feed.http';
import { publicEventsProjection } from './projections/public-events.projection';

/**
 * Event-stream subscribers: the organization feed (JSON pages and Server-Sent Events), signed webhooks with
 * redelivery, resource history, and the catalogue of public events that every context maps its domain events to.
 */
@Module({
  imports: [IdentityModule, ContentModule],
  controllers: [ReadFeedController, ListEventSchemasController],
  providers: [
    ProjectedPublicEvents,
    OrganizationFeed,
    FeedStreams,
    { provide: PUBLIC_EVENT_SOURCE, useExisting: ProjectedPublicEvents },
    // every context's mapper, registered in their module constructors (read it at run time)
    {
      provide: PUBLIC_EVENT_MAPPERS,
      useFactory: (registry: RuntimeRegistry) => registry.publicEventMappers,
      inject: [RuntimeRegistry],
    },
  ],
  exports: [PUBLIC_EVENT_SOURCE, PUBLIC_EVENT_MAPPERS],
})
export class SubscriptionsModule implements OnModuleInit {
  constructor(private readonly registry: RuntimeRegistry) {}

  /** After every module's constructor, so every context has registered its mapper; before the runtime starts. */
  onModuleInit(): void {
    this.registry.addProjections(publicEventsProjection(this.registry.publicEventMappers));
  }
}
