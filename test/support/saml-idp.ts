import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** A key pair and a self-signed X.509 certificate made with openssl, for a test identity provider. */
export function makeKeyPair(subject = '/CN=idp.test'): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'quire-idp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        subject,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface AssertionOptions {
  /** The AuthnRequest's ID the response answers (InResponseTo). */
  requestId: string;
  email: string;
  /** The service's entity ID (Audience), its ACS URL (Destination and Recipient), the IdP's entity ID (Issuer). */
  audience: string;
  destination: string;
  issuer: string;
  /** The service clock's time the assertion is made at; valid for five minutes after it. */
  now: Date;
  assertionId?: string;
  status?: string;
  displayName?: string;
  /** What is signed: the assertion (default), the whole response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  /** Signs with this key instead of the IdP's (a forged signature). */
  key?: string;
  /** The request the signed assertion's subject confirmation names (default: `requestId`). */
  subjectRequestId?: string;
  /** Validity window, in minutes around `now`. */
  validFrom?: number;
  validFor?: number;
}

/** A SAML identity provider for tests: makes responses, signed with its key by xml-crypto. */
export class TestIdp {
  readonly keys = makeKeyPair();
  private counter = 0;

  response(options: AssertionOptions): string {
    const id = () => `_idp${Date.now().toString(16)}${(this.counter++).toString(16)}`;
    const at = (minutes: number) => new Date(options.now.getTime() + minutes * 60_000).toISOString();
    const assertionId = options.assertionId ?? id();
    const notBefore = at(options.validFrom ?? -1);
    const notOnOrAfter = at(options.validFor ?? 5);
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="${id()}" Version="2.0" IssueInstant="${at(0)}" Destination="${options.destination}" InResponseTo="${options.requestId}">` +
      `<saml:Issuer>${options.issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${options.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
      `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
      `<saml:Issuer>${options.issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.email}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData InResponseTo="${options.subjectRequestId ?? options.requestId}" NotOnOrAfter="${notOnOrAfter}" Recipient="${options.destination}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${options.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${id()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${options.displayName ?? 'Signed In'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
      `</saml:Assertion></samlp:Response>`;
    const sign = options.sign ?? 'assertion';
    if (sign === 'none') return xml;
    const signer = new SignedXml({
      privateKey: options.key ?? this.keys.key,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    const target = sign === 'assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
    signer.addReference({
      xpath: target,
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    });
    signer.computeSignature(xml, {
      location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
    });
    return signer.getSignedXml();
  }
}

/** The AuthnRequest a redirect to the IdP carries: its XML, and the query it came in. */
export function authnRequestOf(location: string): { id: string; xml: string; query: URLSearchParams } {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no ID in ${xml}`);
  return { id, xml, query: url.searchParams };
}
