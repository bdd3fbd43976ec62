import { type RetryPolicy } from '../domain/webhook-delivery.decider';

export const WEBHOOK_SETTINGS = Symbol('WEBHOOK_SETTINGS');

/** What the composition root tells webhooks: the fetcher's allowlist (for http addresses) and the retry policy. */
export interface WebhookSettings {
  /** `host:port` entries of FETCH_ALLOWLIST: the only hosts a webhook may reach over plain http. */
  allowlist: readonly string[];
  retry: RetryPolicy;
}
