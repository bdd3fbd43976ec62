export * from './webhook.decider';
export * from './webhook-delivery.decider';
