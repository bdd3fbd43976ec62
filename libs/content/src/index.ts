export { ContentModule } from './content.module';
export * from './public';
