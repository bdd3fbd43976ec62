import { type Projection } from '@app/kernel';
import { type WebhookDeliveryAttempted } from '../domain/webhook-delivery.decider';
import { WEBHOOK_DELIVERIES, type WebhookDeliveryDoc } from '../application/webhook-read-models';

/** Every delivery attempt, as the deliveries list shows it. */
export const webhookDeliveriesProjection: Projection<WebhookDeliveryDoc> = {
  name: WEBHOOK_DELIVERIES,
  version: 1,
  collection: WEBHOOK_DELIVERIES,
  indexes: [
    {
      fields: [
        ['webhookId', 1],
        ['order', -1],
      ],
    },
  ],
  handles: ['WebhookDeliveryAttempted'],
  idOf: (event) => String(event.data.deliveryId),
  evolve(_doc, event) {
    const data = event.data as WebhookDeliveryAttempted['data'];
    return {
      id: data.deliveryId,
      webhookId: data.webhookId,
      organizationId: data.organizationId,
      eventId: data.eventId,
      position: data.position,
      attempt: data.attempt,
      attemptedAt: data.attemptedAt,
      statusCode: data.statusCode,
      durationMs: data.durationMs,
      response: data.response,
      error: data.error,
      order: event.revision,
    };
  },
};
