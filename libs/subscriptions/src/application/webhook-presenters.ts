import { type PublicUrls } from '@app/kernel';
import { type WebhookDeliveryDoc, type WebhookDoc } from './webhook-read-models';

export const webhookPath = (organizationId: string, webhookId: string) =>
  `/orgs/${organizationId}/webhooks/${webhookId}`;

export function presentWebhook(doc: WebhookDoc, urls: PublicUrls) {
  const location = urls.api + webhookPath(doc.organizationId, doc.id);
  return {
    object: 'webhook' as const,
    id: doc.id,
    url: doc.url,
    types: doc.types,
    active: doc.active,
    status: doc.status,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    urls: { location, deliveries: `${location}/deliveries` },
  };
}

export function presentDelivery(doc: WebhookDeliveryDoc) {
  return {
    object: 'webhook-delivery' as const,
    id: doc.id,
    eventId: doc.eventId,
    position: doc.position,
    attempt: doc.attempt,
    attemptedAt: doc.attemptedAt,
    statusCode: doc.statusCode,
    durationMs: doc.durationMs,
    response: doc.response,
    error: doc.error,
  };
}
