import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';

/**
 * Event-stream subscribers: the organization feed (JSON pages and Server-Sent Events), signed webhooks with
 * redelivery, resource history, and the catalogue of public events that every context maps its domain events to.
 */
@Module({
  imports: [IdentityModule],
  controllers: [],
  providers: [],
})
export class SubscriptionsModule {}
