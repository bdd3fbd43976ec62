export { ExtensibilityModule } from './extensibility.module';
export * from './public';
