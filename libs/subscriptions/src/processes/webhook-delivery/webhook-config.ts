import { type EventStore, positionToString } from '@app/kernel';
import { type WebhookEvent, webhookStream } from '../../domain/webhook.decider';

/** What delivering needs to know of a webhook, folded from its own (short) stream. */
export interface WebhookConfig {
  webhookId: string;
  organizationId: string;
  url: string;
  /** Empty: every type. */
  types: string[];
  active: boolean;
  sealedSecret: string;
  /** Position of the webhook's creation: it delivers what happens after it. */
  origin: string;
  deleted: boolean;
  /** Every redelivery asked for, with the revision of its request in the webhook's stream. */
  redeliveries: { request: number; after: string }[];
}

/** The webhook's settings as its stream has them now, or null when it never existed. */
export async function readWebhookConfig(events: EventStore, webhookId: string): Promise<WebhookConfig | null> {
  let config = null as WebhookConfig | null;
  for (const recorded of await events.readStream(webhookStream(webhookId))) {
    const event = { type: recorded.type, data: recorded.data } as WebhookEvent;
    switch (event.type) {
      case 'WebhookCreated': {
        const { organizationId, url, types, active, sealedSecret } = event.data;
        config = {
          webhookId,
          organizationId,
          url,
          types,
          active,
          sealedSecret,
          origin: positionToString(recorded.position),
          deleted: false,
          redeliveries: [],
        };
        break;
      }
      case 'WebhookUpdated':
        if (config) {
          const { url, types, active } = event.data;
          config = { ...config, url: url ?? config.url, types: types ?? config.types, active: active ?? config.active };
        }
        break;
      case 'WebhookDeleted':
        if (config) config = { ...config, deleted: true };
        break;
      case 'WebhookRedeliveryRequested':
        if (config) {
          config = {
            ...config,
            redeliveries: [...config.redeliveries, { request: recorded.revision, after: event.data.after }],
          };
        }
        break;
    }
  }
  return config;
}
