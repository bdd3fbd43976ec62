export { IdentityModule } from './identity.module';
export * from './public';
