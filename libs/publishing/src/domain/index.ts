export * from './site-features';
export * from './site-structure';
export * from './site.decider';
