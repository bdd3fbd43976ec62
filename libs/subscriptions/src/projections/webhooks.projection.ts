import { type Projection, type RecordedEvent } from '@app/kernel';
import { WEBHOOK_EVENTS, type WebhookEvent, webhookStream } from '../domain/webhook.decider';
import { type WebhookDeliveryEvent } from '../domain/webhook-delivery.decider';
import { WEBHOOKS, type WebhookDoc } from '../application/webhook-read-models';

type Handled = WebhookEvent | Extract<WebhookDeliveryEvent, { type: 'WebhookFailing' | 'WebhookRecovered' }>;

function evolveWebhook(doc: WebhookDoc | null, event: Handled, recorded: RecordedEvent): WebhookDoc | null {
  // the status comes from the delivery stream; the version is the revision of the webhook's own stream
  const version = recorded.streamId === webhookStream(event.data.webhookId) ? recorded.revision : doc?.version;
  switch (event.type) {
    case 'WebhookCreated': {
      const { webhookId, organizationId, url, types, active, createdAt } = event.data;
      return {
        id: webhookId,
        organizationId,
        url,
        types,
        active,
        status: 'active',
        createdAt,
        updatedAt: createdAt,
        version: recorded.revision,
      };
    }
    case 'WebhookUpdated': {
      if (!doc) return null;
      const { url, types, active, updatedAt } = event.data;
      return {
        ...doc,
        url: url ?? doc.url,
        types: types ?? doc.types,
        active: active ?? doc.active,
        updatedAt,
        version: version ?? doc.version,
      };
    }
    case 'WebhookRedeliveryRequested':
      return doc && { ...doc, version: version ?? doc.version };
    case 'WebhookDeleted':
      return null;
    case 'WebhookFailing':
      return doc && { ...doc, status: 'failing' };
    case 'WebhookRecovered':
      return doc && { ...doc, status: 'active' };
  }
}

export const webhooksProjection: Projection<WebhookDoc> = {
  name: WEBHOOKS,
  version: 1,
  collection: WEBHOOKS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: [...WEBHOOK_EVENTS, 'WebhookFailing', 'WebhookRecovered'],
  idOf: (event) => String(event.data.webhookId),
  evolve: (doc, event) => evolveWebhook(doc, event as unknown as Handled, event),
};
