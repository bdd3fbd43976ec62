export * from './personal-text';
export * from './user.decider';
export * from './email-address.decider';
export * from './hostname.decider';
export * from './organization.decider';
export * from './organization-permissions';
export * from './saml-login.decider';
