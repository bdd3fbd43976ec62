export { SubscriptionsModule } from './subscriptions.module';
export * from './public';
