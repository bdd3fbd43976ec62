export * from './custom-fields.decider';
export * from './translation-settings.decider';
export * from './text';
export * from './integration.decider';
