export * from './actor';
export * from './error.filter';
export * from './etag';
export * from './pagination';
export * from './validation';
export * from './urls';
export * from './list';
export * from './optional-field';
