export { FEED_STREAM_OPTIONS, FeedStreams, type FeedStreamOptions } from '../application/read-feed/event-stream';
export { WEBHOOK_SETTINGS, type WebhookSettings } from '../application/webhook-settings';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/webhook-delivery.decider';
export { WebhookDelivery } from '../processes/webhook-delivery/webhook-dispatcher';
