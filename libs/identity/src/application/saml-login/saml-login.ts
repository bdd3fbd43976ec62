import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  Forbidden,
  IllegalState,
  PUBLIC_URLS,
  type PublicUrls,
  Runtime,
  ValidationFailed,
  handleCommand,
  loadState,
  metadataFor,
  newId,
} from '@app/kernel';
import {
  organizationStream,
  samlAssertionDecider,
  samlAssertionStream,
  samlRequestDecider,
  samlRequestStream,
  userStream,
} from '../../domain';
import { ensureUser } from '../bootstrap/bootstrap';
import { organizations, users } from '../deciders';
import { PersonalData, userSubject } from '../personal-data/sealing';
import { type SamlProviderDoc } from '../read-models';
import { SamlProviders, certificatePem, isActive, serviceUrls } from '../saml-providers/saml-providers';
import { generateToken, hashToken } from '../tokens';
import { SAML_SIGNING_KEY } from './saml-settings';

/** How long the IdP has to answer an AuthnRequest. */
export const SAML_REQUEST_LIFETIME_MS = 10 * 60_000;
/** Tolerated difference between the IdP's clock and this service's, on each side of a time window. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** The largest SAMLResponse read (base64), well below the body limit. */
const MAX_RESPONSE_CHARS = 256 * 1024;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
/** Projections the answer of a sign-in depends on: the token must work at once, the membership be visible. */
const SIGN_IN_READ_MODELS = ['users', 'token-hashes', 'api-tokens', 'members', 'teams', 'team_members'];

/** node-saml keeps issued request ids in memory by default; this service keeps them in the event store instead. */
const NO_CACHE: CacheProvider = {
  saveAsync: () => Promise.resolve(null),
  getAsync: () => Promise.resolve(null),
  removeAsync: () => Promise.resolve(null),
};

export interface SignedIn {
  token: string;
  userId: string;
  organizationId: string;
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: XmlNode | undefined, name: string): XmlNode[] =>
  Array.isArray(node?.[name]) ? (node[name] as XmlNode[]) : [];
const text = (node: XmlNode | undefined): string | undefined =>
  typeof node === 'string' ? node : typeof node?._ === 'string' ? node._.trim() : undefined;

/**
 * The SAML sign-in (SP-initiated, HTTP-Redirect to the IdP, HTTP-POST back). node-saml checks the XML signature
 * against the provider's certificate and the audience; this service checks the rest itself, with its own clock:
 * destination, issuer, status, time window, that the response answers a request it issued (once, before expiry),
 * and that the assertion was never used before. Nothing is appended before every check has passed.
 */
@Injectable()
export class SamlLogin {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Optional() @Inject(SAML_SIGNING_KEY) private readonly signingKey: string | null,
    private readonly providers: SamlProviders,
    private readonly runtime: Runtime,
    private readonly personal: PersonalData,
  ) {}

  /** Issues an AuthnRequest and returns the IdP address to send the browser to (signed when a key is set). */
  async start(organizationId: string, providerId: string): Promise<string> {
    const provider = await this.activeProvider(organizationId, providerId);
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const url = await (await this.saml(provider, requestId)).getAuthorizeUrlAsync('', undefined, {});
    const expiresAt = new Date(this.clock.now().getTime() + SAML_REQUEST_LIFETIME_MS).toISOString();
    await handleCommand(this.events, samlRequestDecider, samlRequestStream(requestId), {
      type: 'IssueSamlRequest',
      data: { requestId, organizationId, providerId, expiresAt },
      metadata: metadataFor(this.clock, undefined),
    });
    return url;
  }

  /** Checks the IdP's answer, then signs its subject in: user, membership, and a new API token. */
  async consume(organizationId: string, providerId: string, samlResponse: string): Promise<SignedIn> {
    const xml = decodeResponse(samlResponse);
    const provider = await this.activeProvider(organizationId, providerId);
    const service = serviceUrls(this.urls, provider);

    let profile: Profile;
    try {
      const result = await (await this.saml(provider, '')).validatePostResponseAsync({ SAMLResponse: samlResponse });
      if (!result.profile) throw new Error('no assertion');
      profile = result.profile;
    } catch (error) {
      throw new Forbidden(`SAML response refused: ${(error as Error).message}`);
    }
    const { parseXml2JsFromString } = await import('@node-saml/node-saml/lib/xml');
    const response = (await parseXml2JsFromString(xml)).Response as XmlNode | undefined;
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
    if (!response || !assertion) throw new Forbidden('SAML response refused: no Response with one Assertion');

    const status = children(children(response, 'Status')[0], 'StatusCode')[0]?.$?.Value;
    if (status !== SUCCESS) throw new Forbidden(`SAML response refused: status ${status ?? 'missing'}`);
    if (response.$?.Destination !== service.acsURL)
      throw new Forbidden('SAML response refused: its Destination is not this provider’s ACS URL');
    const issuer = text(children(assertion, 'Issuer')[0]);
    const responseIssuer = text(children(response, 'Issuer')[0]);
    if (issuer !== provider.entityID || (responseIssuer !== undefined && responseIssuer !== provider.entityID))
      throw new Forbidden('SAML response refused: its Issuer is not the provider’s entity ID');
    const requestId = response.$?.InResponseTo;
    if (!requestId) throw new Forbidden('SAML response refused: it answers no request (InResponseTo missing)');
    this.checkSubject(assertion, requestId, service.acsURL);
    this.checkTimeWindow(assertion);
    const assertionId = assertion.$?.ID;
    if (!assertionId) throw new Forbidden('SAML response refused: the assertion has no ID');
    const email = assertedEmail(profile);
    if (!email) throw new Forbidden('SAML response refused: no email address asserted (NameID or email attribute)');

    // Every check passed; these decisions refuse (and append nothing) for an unknown, expired or answered request
    // and for an assertion seen before.
    const assertionKey = createHash('sha256').update(`${providerId}\n${assertionId}`).digest('hex').slice(0, 40);
    const answer = {
      type: 'AnswerSamlRequest' as const,
      data: { requestId, providerId, assertionId },
      metadata: metadataFor(this.clock, undefined),
    };
    const consume = {
      type: 'ConsumeSamlAssertion' as const,
      data: { assertionKey, providerId, assertionId, requestId },
      metadata: metadataFor(this.clock, undefined),
    };
    samlRequestDecider.decide(
      answer,
      (await loadState(this.events, samlRequestDecider, samlRequestStream(requestId))).state,
    );
    samlAssertionDecider.decide(
      consume,
      (await loadState(this.events, samlAssertionDecider, samlAssertionStream(assertionKey))).state,
    );
    await handleCommand(this.events, samlAssertionDecider, samlAssertionStream(assertionKey), consume);
    await handleCommand(this.events, samlRequestDecider, samlRequestStream(requestId), answer);

    const displayName = displayNameOf(profile, email);
    const { userId } = await ensureUser(this.events, this.personal, this.clock, email, displayName);
    await handleCommand(this.events, organizations, organizationStream(organizationId), {
      type: 'SignInWithSaml',
      data: { organizationId, providerId, member: { userId } },
      metadata: metadataFor(this.clock, userId),
    });
    const token = generateToken();
    const { label } = await this.personal.seal(userSubject(userId), { label: `SAML sign-in: ${provider.label}` });
    const issued = await handleCommand(this.events, users, userStream(userId), {
      type: 'CreateApiToken',
      data: { userId, tokenId: newId(), label, tokenHash: hashToken(token) },
      metadata: metadataFor(this.clock, userId),
    });
    // The token is appended last: once projections reach it, they also reached the membership.
    await this.runtime.settle(issued.position, SIGN_IN_READ_MODELS);
    return { token, userId, organizationId };
  }

  /**
   * The Service Provider metadata of one provider (entity ID, ACS URL, NameID format), for an IdP administrator
   * to import. It does not carry the request-signing certificate: give that to the IdP separately.
   */
  async metadata(organizationId: string, providerId: string): Promise<string> {
    const provider = await this.providers.require(organizationId, providerId);
    return (await this.saml(provider, '', false)).generateServiceProviderMetadata(null, null);
  }

  private async activeProvider(organizationId: string, providerId: string): Promise<SamlProviderDoc> {
    const provider = await this.providers.require(organizationId, providerId);
    if (!isActive(provider)) throw new IllegalState('This SAML provider is not fully configured yet');
    return provider;
  }

  /**
   * node-saml and its XML stack (parser, signatures, encryption) are loaded by the first SAML request rather than
   * at start, like the other libraries only some services use.
   */
  private async saml(provider: SamlProviderDoc, requestId: string, signing = true): Promise<SAML> {
    const { SAML: Saml, ValidateInResponseTo } = await import('@node-saml/node-saml');
    const service = serviceUrls(this.urls, provider);
    return new Saml({
      entryPoint: provider.ssoURL ?? 'https://unset.invalid',
      issuer: service.entityID,
      callbackUrl: service.acsURL,
      audience: service.entityID,
      idpCert: provider.certificate ? certificatePem(provider.certificate) : 'unset',
      // Either the Response or its Assertion must carry a valid signature (node-saml refuses neither signed).
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      // Time and InResponseTo are checked below with this service's clock and event store.
      acceptedClockSkewMs: -1,
      validateInResponseTo: ValidateInResponseTo.never,
      cacheProvider: NO_CACHE,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      disableRequestedAuthnContext: true,
      generateUniqueId: () => requestId,
      ...(signing && this.signingKey ? { privateKey: this.signingKey, signatureAlgorithm: 'sha256' as const } : {}),
    });
  }

  /**
   * The Web SSO profile's bearer confirmation, inside the signed assertion: it must name the request answered and
   * this ACS URL (so an assertion signed for another request or service cannot be rewrapped in a new Response),
   * and no confirmation may name another.
   */
  private checkSubject(assertion: XmlNode, requestId: string, acsURL: string): void {
    let bearer = false;
    for (const confirmation of children(children(assertion, 'Subject')[0], 'SubjectConfirmation')) {
      for (const data of children(confirmation, 'SubjectConfirmationData')) {
        const { InResponseTo: inResponseTo, Recipient: recipient } = data.$ ?? {};
        if (inResponseTo !== undefined && inResponseTo !== requestId)
          throw new Forbidden('SAML response refused: the assertion answers another request');
        if (recipient !== undefined && recipient !== acsURL)
          throw new Forbidden('SAML response refused: the assertion’s Recipient is not this provider’s ACS URL');
        if (confirmation.$?.Method === BEARER && inResponseTo === requestId && recipient === acsURL) bearer = true;
      }
    }
    if (!bearer)
      throw new Forbidden(
        'SAML response refused: the assertion has no bearer confirmation naming this request and ACS URL',
      );
  }

  /** NotBefore and NotOnOrAfter of the conditions and subject confirmations, by this service's clock. */
  private checkTimeWindow(assertion: XmlNode): void {
    const now = this.clock.now().getTime();
    const windows = [
      ...children(assertion, 'Conditions'),
      ...children(children(assertion, 'Subject')[0], 'SubjectConfirmation').flatMap((confirmation) =>
        children(confirmation, 'SubjectConfirmationData'),
      ),
    ].map((node) => node.$ ?? {});
    if (!windows.some((window) => window.NotOnOrAfter))
      throw new Forbidden('SAML response refused: the assertion has no NotOnOrAfter');
    for (const window of windows) {
      if (window.NotBefore !== undefined) {
        const notBefore = Date.parse(window.NotBefore);
        if (Number.isNaN(notBefore) || now + SAML_CLOCK_SKEW_MS < notBefore)
          throw new Forbidden('SAML response refused: the assertion is not valid yet');
      }
      if (window.NotOnOrAfter !== undefined) {
        const notOnOrAfter = Date.parse(window.NotOnOrAfter);
        if (Number.isNaN(notOnOrAfter) || now - SAML_CLOCK_SKEW_MS >= notOnOrAfter)
          throw new Forbidden('SAML response refused: the assertion has expired');
      }
    }
  }
}

/**
 * The response's XML, refused before any parser sees it when it is not base64 XML or declares a DOCTYPE (no
 * external entities, no entity expansion: SAML never needs a DTD).
 */
function decodeResponse(samlResponse: string): string {
  const compact = samlResponse.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length > MAX_RESPONSE_CHARS || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact))
    throw new ValidationFailed('SAMLResponse must be a base64-encoded SAML response');
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new ValidationFailed('SAMLResponse may not declare a DOCTYPE or entities');
  if (!xml.trimStart().startsWith('<')) throw new ValidationFailed('SAMLResponse is not XML');
  return xml;
}

/** The asserted email: the NameID when it is an address, otherwise an `email`/`mail` attribute. */
function assertedEmail(profile: Profile): string | undefined {
  const candidates = [profile.nameID, profile.email, profile.mail, profile['emailAddress']];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.length <= 254 && EMAIL.test(candidate.trim()))
      return candidate.trim();
  }
  return undefined;
}

function displayNameOf(profile: Profile, email: string): string {
  for (const key of ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname']) {
    const value = profile[key];
    if (typeof value === 'string' && value.trim() && value.length <= 255) return value.trim();
  }
  return email.split('@')[0];
}
