export { ReviewModule } from './review.module';
export * from './public';
