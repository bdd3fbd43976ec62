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
import { webhookProjections } from './projections/webhook-projections';
import { ChangeWebhookHandler } from './application/change-webhook/change-webhook.command';
import { CreateWebhookHandler } from './application/create-webhook/create-webhook.command';
import { CreateWebhookController } from './application/create-webhook/create-webhook.http';
import { ListWebhooksController } from './application/list-webhooks/list-webhooks.http';
import { ListWebhooksHandler } from './application/list-webhooks/list-webhooks.query';
import { GetWebhookController } from './application/get-webhook/get-webhook.http';
import { GetWebhookHandler } from './application/get-webhook/get-webhook.query';
import { UpdateWebhookController } from './application/update-webhook/update-webhook.http';
import { DeleteWebhookController } from './application/delete-webhook/delete-webhook.http';
import { ListDeliveriesController } from './application/list-deliveries/list-deliveries.http';
import { ListDeliveriesHandler } from './application/list-deliveries/list-deliveries.query';
import { RedeliverController } from './application/redeliver/redeliver.http';
import { WebhookDelivery } from './processes/webhook-delivery/webhook-dispatcher';

/**
 * Event-stream subscribers: the organization feed (JSON pages and Server-Sent Events), signed webhooks with
 * redelivery, resource history, and the catalogue of public events that every context maps its domain events to.
 */
@Module({
  imports: [IdentityModule, ContentModule],
  controllers: [
    ReadFeedController,
    ListEventSchemasController,
    ListWebhooksController,
    CreateWebhookController,
    GetWebhookController,
    UpdateWebhookController,
    DeleteWebhookController,
    ListDeliveriesController,
    RedeliverController,
  ],
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
    ChangeWebhookHandler,
    CreateWebhookHandler,
    ListWebhooksHandler,
    GetWebhookHandler,
    ListDeliveriesHandler,
    WebhookDelivery,
  ],
  exports: [PUBLIC_EVENT_SOURCE, PUBLIC_EVENT_MAPPERS],
})
export class SubscriptionsModule implements OnModuleInit {
  constructor(private readonly registry: RuntimeRegistry) {
    registry.addProjections(...webhookProjections);
  }

  /** After every module's constructor, so every context has registered its mapper; before the runtime starts. */
  onModuleInit(): void {
    this.registry.addProjections(publicEventsProjection(this.registry.publicEventMappers));
  }
}
