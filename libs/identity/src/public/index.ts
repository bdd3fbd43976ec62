export * from './organization-access';
export { bootstrap, type BootstrapRequest, type BootstrapResult } from '../application/bootstrap/bootstrap';
export {
  eraseUser,
  type ErasureResult,
  type ErasureStores,
  ERASURE_READ_MODELS,
} from '../application/erase-user/erase-user';
export { UserDirectory, type UserBody } from './user-directory';
export { GetOrganizationQuery } from '../application/get-organization/get-organization.query';
export { TokenAuthenticator, type Authentication } from '../application/token-authenticator';
export { TEAM_SPACES, type TeamSpaces } from './team-spaces';
export { TeamDirectory, type TeamBody } from './team-directory';
export { CONTENT_INVITES, type ContentInvites, type InviteTarget } from './content-invites';
export { SAML_SIGNING_KEY, SAML_ACS_ROUTE } from '../application/saml-login/saml-settings';
export { identityPublicEvents } from './public-events';
