export * from './custom-fields.decider';
export * from './translation-settings.decider';
export * from './text';
export * from './openapi-spec.decider';
