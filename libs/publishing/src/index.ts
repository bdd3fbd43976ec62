export { PublishingModule } from './publishing.module';
export * from './public';
