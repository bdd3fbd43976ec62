export * from './levels';
export * from './collection.decider';
export * from './space.decider';
export * from './revision.decider';
export * from './content-permissions';
export * from './content-grants.decider';
