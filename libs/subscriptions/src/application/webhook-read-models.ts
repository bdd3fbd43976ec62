/** Read-model collections of webhooks (written by ../projections). */
export const WEBHOOKS = 'webhooks';
export const WEBHOOK_DELIVERIES = 'webhook_deliveries';

/** One webhook (id: the webhook's id). The signing secret is not here: only the webhook's stream holds it, sealed. */
export interface WebhookDoc {
  id: string;
  organizationId: string;
  url: string;
  types: string[];
  active: boolean;
  status: 'active' | 'failing';
  createdAt: string;
  updatedAt: string;
  /** Revision of the webhook's stream (the ETag). */
  version: number;
  [key: string]: unknown;
}

/** One delivery attempt (id: the delivery's id). */
export interface WebhookDeliveryDoc {
  id: string;
  webhookId: string;
  organizationId: string;
  eventId: string;
  position: string;
  attempt: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  response: string | null;
  error: string | null;
  /** Revision in the webhook's delivery stream: orders attempts, newest first. */
  order: number;
  [key: string]: unknown;
}

/** What a mutating endpoint waits for before it answers. */
export const WEBHOOK_READ_MODELS = [WEBHOOKS];
