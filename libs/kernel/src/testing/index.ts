export * from './decider-spec';
export * from './public-events';
