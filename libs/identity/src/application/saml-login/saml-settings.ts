/** Injection token of the PEM private key that signs AuthnRequests (`null`: requests go unsigned). */
export const SAML_SIGNING_KEY = Symbol('SAML_SIGNING_KEY');

/**
 * The one route that reads a form (`application/x-www-form-urlencoded`): the IdP's browser POST to the Assertion
 * Consumer Service. The app's form parser refuses every other URL with 415.
 */
export const SAML_ACS_ROUTE = /^\/v1\/orgs\/[^/?#]+\/saml\/[^/?#]+\/acs\/?(?:\?.*)?$/;
