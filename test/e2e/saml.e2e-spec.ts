import { GitBookAPI, MemberRole } from '@gitbook/api';
import { createPublicKey, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestIdp, authnRequestOf, makeKeyPair } from '../support/saml-idp';
import { TestService, expectError } from '../support/service';
import { loadConfig } from '../../apps/api/src/config';

type Account = { userId: string; token: string; organizationId: string };

/**
 * SAML providers over real HTTP (who may manage them, their limits and states, another organization's ones, the
 * official client), and the sign-in through a test identity provider made here.
 */
describe('SAML (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let reader: Account;
  let creator: Account;
  let guest: Account;
  let outsider: Account;
  let teamId: string;
  let otherTeamId: string;
  const idp = new TestIdp();
  /** The key this service signs its AuthnRequests with. */
  const spKey = makeKeyPair('/CN=quire.test');

  const org = () => owner.organizationId;
  const as = (account: { token: string }) => service.as(account.token);
  /** Pending providers leave out settings the spec marks required: their answers are read without the schema check. */
  const raw = async (account: { token: string }, method: string, path: string, body?: unknown) => {
    const response = await fetch(service.url + path, {
      method,
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    const keyFile = join(tmpdir(), `quire-saml-sp-${process.pid}.pem`);
    writeFileSync(keyFile, spKey.key, { mode: 0o600 });
    service = await TestService.start({ SAML_SIGNING_KEY_FILE: keyFile });
    owner = await service.signUp('owner@saml.test', { name: 'Owner', org: 'Saml Inc' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    reader = await service.signUp('reader@saml.test', { name: 'Reader' });
    creator = await service.signUp('creator@saml.test', { name: 'Creator' });
    guest = await service.signUp('guest@saml.test', { name: 'Guest' });
    for (const [email, role] of [
      ['creator@saml.test', 'create'],
      ['guest@saml.test', null],
    ])
      expect((await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: [email], role })).status).toBe(200);
    expect(
      (await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: ['reader@saml.test'], role: 'read' })).status,
    ).toBe(200);
    teamId = (await as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'Newcomers' })).body.id;
    otherTeamId = (await as(outsider).put(`/v1/orgs/${outsider.organizationId}/teams`, { title: 'Theirs' })).body.id;
  });

  afterAll(async () => {
    await service?.stop();
  });

  describe('providers', () => {
    it('creates a pending provider, then makes it active once the IdP settings are all set', async () => {
      const created = await raw(owner, 'POST', `/v1/orgs/${org()}/saml`, { label: 'Okta' });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const base = `http://quire.test/v1/orgs/${org()}/saml/${id}`;
      expect(created.headers.get('location')).toBe(base);
      expect(created.body).toEqual({
        object: 'saml-provider',
        id,
        label: 'Okta',
        defaultRole: null,
        createdAt: expect.any(String),
        status: 'pending',
        service: { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` },
        urls: { location: base },
      });
      const changed = await as(owner).patch(`/v1/orgs/${org()}/saml/${id}`, {
        entityID: 'https://idp.test/entity',
        certificate: idp.keys.cert,
        ssoURL: 'https://idp.test/sso',
        defaultRole: 'comment',
        defaultTeam: teamId,
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        status: 'active',
        entityID: 'https://idp.test/entity',
        certificate: idp.keys.cert,
        ssoURL: 'https://idp.test/sso',
        defaultRole: 'comment',
        defaultTeam: { object: 'team', id: teamId, title: 'Newcomers' },
      });
      const cleared = await raw(owner, 'PATCH', `/v1/orgs/${org()}/saml/${id}`, { ssoURL: '' });
      expect(cleared.body.status).toBe('pending');
      expect(cleared.body.ssoURL).toBeUndefined();
      expect((await as(owner).delete(`/v1/orgs/${org()}/saml/${id}`)).status).toBe(204);
      expect((await as(owner).delete(`/v1/orgs/${org()}/saml/${id}`)).status).toBe(204);
      expectError(await as(owner).get(`/v1/orgs/${org()}/saml/${id}`), 404);
    });

    it('refuses bad input with 400 and appends nothing', async () => {
      const post = (body: unknown) => () => as(owner).post(`/v1/orgs/${org()}/saml`, body);
      await service.refused(post({}), 400);
      await service.refused(post({ label: '' }), 400, /label/);
      await service.refused(post({ label: '😀'.repeat(31) }), 400, /label/);
      await service.refused(post({ label: 'X', certificate: 'not a certificate' }), 400, /X\.509/);
      await service.refused(post({ label: 'X', certificate: 'c'.repeat(10001) }), 400, /certificate/);
      await service.refused(post({ label: 'X', entityID: 'e'.repeat(1025) }), 400, /entityID/);
      await service.refused(post({ label: 'X', ssoURL: 'not a url' }), 400, /ssoURL/);
      await service.refused(post({ label: 'X', ssoURL: 'javascript:alert(1)' }), 400, /ssoURL/);
      await service.refused(post({ label: 'X', ssoURL: `https://idp.test/${'a'.repeat(2040)}` }), 400, /ssoURL/);
      await service.refused(post({ label: 'X', defaultTeam: otherTeamId }), 400, /defaultTeam/);
      await service.refused(post({ label: 'X', defaultRole: 'owner' }), 400, /defaultRole/);
      await service.refused(post({ label: 'X', unknown: true }), 400);
      const ok = await raw(owner, 'POST', `/v1/orgs/${org()}/saml`, { label: '😀'.repeat(30) });
      expect(ok.status).toBe(201);
      await service.refused(() => as(owner).patch(`/v1/orgs/${org()}/saml/${ok.body.id}`, { certificate: 'x' }), 400);
      await service.refused(() => as(owner).patch(`/v1/orgs/${org()}/saml/${ok.body.id}`, { label: null }), 400);
      await as(owner).delete(`/v1/orgs/${org()}/saml/${ok.body.id}`);
    });

    it('lets only admins manage providers, members read the sign-in list, and hides another organization', async () => {
      const created = await raw(owner, 'POST', `/v1/orgs/${org()}/saml`, {
        label: 'Entra',
        entityID: 'https://entra.test',
        certificate: idp.keys.cert,
        ssoURL: 'https://entra.test/sso',
      });
      const id = created.body.id;
      const path = `/v1/orgs/${org()}/saml/${id}`;
      for (const member of [creator, reader, guest]) {
        await service.refused(() => as(member).get(`/v1/orgs/${org()}/saml`), 403);
        await service.refused(() => as(member).get(path), 403);
        await service.refused(() => as(member).post(`/v1/orgs/${org()}/saml`, { label: 'Mine' }), 403);
        await service.refused(() => as(member).patch(path, { label: 'Mine' }), 403);
        await service.refused(() => as(member).delete(path), 403);
        expect((await as(member).get(`/v1/orgs/${org()}/sso`)).status).toBe(200);
      }
      for (const call of [
        () => as(outsider).get(`/v1/orgs/${org()}/saml`),
        () => as(outsider).get(path),
        () => as(outsider).patch(path, { label: 'Mine' }),
        () => as(outsider).delete(path),
        () => as(outsider).get(`/v1/orgs/${org()}/sso`),
        () => as(outsider).get(`/v1/orgs/${outsider.organizationId}/saml/${id}`),
        () => as(outsider).patch(`/v1/orgs/${outsider.organizationId}/saml/${id}`, { label: 'Mine' }),
      ])
        await service.refused(call, 404);
      expect((await as(outsider).delete(`/v1/orgs/${outsider.organizationId}/saml/${id}`)).status).toBe(204);
      expect((await as(owner).get(path)).status).toBe(200);
      const logins = await as(reader).get(`/v1/orgs/${org()}/sso`);
      expect(logins.status).toBe(200);
      expect(logins.body.items).toContainEqual({ id, label: 'Entra', startURL: `http://quire.test${path}/start` });
      const pending = await raw(owner, 'POST', `/v1/orgs/${org()}/saml`, { label: 'Half done' });
      const again = await as(reader).get(`/v1/orgs/${org()}/sso`);
      expect(again.body.items.map((item: { id: string }) => item.id)).not.toContain(pending.body.id);
      await as(owner).delete(path);
      await as(owner).delete(`/v1/orgs/${org()}/saml/${pending.body.id}`);
    });

    it('forgets a default team once it is deleted, and a deleted provider is gone everywhere', async () => {
      const team = (await as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'Short-lived' })).body.id;
      const created = await as(owner).post(`/v1/orgs/${org()}/saml`, {
        label: 'Temporary',
        entityID: 'https://temp.test',
        certificate: idp.keys.cert,
        ssoURL: 'https://temp.test/sso',
        defaultTeam: team,
      });
      expect(created.body.defaultTeam.id).toBe(team);
      const path = `/v1/orgs/${org()}/saml/${created.body.id}`;
      expect((await as(owner).delete(`/v1/orgs/${org()}/teams/${team}`)).status).toBe(204);
      expect((await as(owner).get(path)).body.defaultTeam).toBeUndefined();
      expect((await as(owner).delete(path)).status).toBe(204);
      expect((await as(owner).get(`/v1/orgs/${org()}/sso`)).body.items).not.toContainEqual(
        expect.objectContaining({ id: created.body.id }),
      );
      expect((await fetch(`${service.url}${path}/start`, { redirect: 'manual' })).status).toBe(404);
    });

    it('works through the official client', async () => {
      const client = new GitBookAPI({ authToken: owner.token, endpoint: service.url });
      const created = await client.orgs.createOrganizationSamlProvider(org(), {
        label: 'Client',
        entityID: 'https://client.test',
        certificate: idp.keys.cert,
        ssoURL: 'https://client.test/sso',
        defaultRole: MemberRole.Read,
      });
      expect(created.status).toBe(201);
      expect(created.data.status).toBe('active');
      const id = created.data.id;
      const listed = await client.orgs.listSamlProvidersInOrganizationById(org());
      expect(listed.data.items.map((item) => item.id)).toContain(id);
      const updated = await client.orgs.updateOrganizationSamlProvider(org(), id, { label: 'Client 2' });
      expect(updated.data.label).toBe('Client 2');
      expect((await client.orgs.getOrganizationSamlProviderById(org(), id)).data.label).toBe('Client 2');
      const logins = await client.orgs.listSsoProviderLoginsInOrganization(org());
      expect(logins.data.items.map((item) => item.id)).toContain(id);
      await client.orgs.deleteOrganizationSamlProvider(org(), id);
      await expect(client.orgs.getOrganizationSamlProviderById(org(), id)).rejects.toMatchObject({ code: 404 });
    });
  });
  it('refuses at start-up a SAML_SIGNING_KEY_FILE that is not a private key', () => {
    const notAKey = join(tmpdir(), `quire-saml-not-a-key-${process.pid}.pem`);
    writeFileSync(notAKey, idp.keys.cert);
    expect(() =>
      loadConfig({ DATA_DIR: tmpdir(), CURSOR_SECRET: 'x'.repeat(32), SAML_SIGNING_KEY_FILE: notAKey }),
    ).toThrow(/SAML_SIGNING_KEY_FILE/);
  });

  describe('sign-in', () => {
    const IDP = 'https://idp.test/entity';
    let base: string;
    let acsURL: string;
    let spEntityID: string;

    const start = async () => {
      const response = await fetch(`${service.url}${base}/start`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      return authnRequestOf(response.headers.get('location')!);
    };
    const answer = (requestId: string, options: Partial<Parameters<TestIdp['response']>[0]> = {}) =>
      idp.response({
        requestId,
        email: 'new.person@saml.test',
        audience: spEntityID,
        destination: acsURL,
        issuer: IDP,
        now: service.clock.now(),
        ...options,
      });
    const post = (xml: string, headers: Record<string, string> = {}) =>
      service.call('POST', `${base}/acs`, {
        raw: new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: 'r' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    /** A refused sign-in: the status and message, and not one event appended (no user, member or token). */
    const refusedLogin = (xml: string, status: number, message: RegExp) =>
      service.refused(() => post(xml), status, message);

    beforeAll(async () => {
      const created = await as(owner).post(`/v1/orgs/${org()}/saml`, {
        label: 'Test IdP',
        entityID: IDP,
        certificate: idp.keys.cert,
        ssoURL: 'https://idp.test/sso?tenant=1',
        defaultRole: 'comment',
        defaultTeam: teamId,
      });
      expect(created.status).toBe(201);
      base = `/v1/orgs/${org()}/saml/${created.body.id}`;
      ({ acsURL, entityID: spEntityID } = created.body.service);
    });

    it('redirects to the IdP with a signed AuthnRequest for this service', async () => {
      const response = await fetch(`${service.url}${base}/start`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = response.headers.get('location')!;
      expect(location.startsWith('https://idp.test/sso?tenant=1&SAMLRequest=')).toBe(true);
      const request = authnRequestOf(location);
      expect(request.xml).toContain(`AssertionConsumerServiceURL="${acsURL}"`);
      expect(request.xml).toContain(
        `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${spEntityID}</saml:Issuer>`,
      );
      const query = location.slice(location.indexOf('?') + 1);
      const signed = query.slice(query.indexOf('SAMLRequest='), query.indexOf('&Signature='));
      expect(request.query.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      const signature = Buffer.from(request.query.get('Signature')!, 'base64');
      expect(verify('sha256', Buffer.from(signed), createPublicKey(spKey.key), signature)).toBe(true);
    });

    it('signs a newcomer in: user created, member with the default role and team, a token that works', async () => {
      const request = await start();
      const signedIn = await post(answer(request.id, { displayName: 'New Person' }));
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe('no-store');
      expect(signedIn.body).toEqual({
        token: expect.stringMatching(/^quire_/),
        userId: expect.any(String),
        organizationId: org(),
      });
      const me = await as(signedIn.body).get('/v1/user');
      expect(me.body).toMatchObject({
        id: signedIn.body.userId,
        email: 'new.person@saml.test',
        displayName: 'New Person',
      });
      const member = await as(owner).get(`/v1/orgs/${org()}/members/${signedIn.body.userId}`);
      expect(member.body).toMatchObject({ role: 'comment', sso: true, teams: 1 });
      const team = await as(owner).get(`/v1/orgs/${org()}/teams/${teamId}/members`);
      expect(team.body.items.map((item: { organization: { id: string } }) => item.organization.id)).toContain(
        signedIn.body.userId,
      );

      // The same person again (a response signed as a whole this time): the same user, a new token, the same role.
      const again = await post(answer((await start()).id, { sign: 'response' }));
      expect(again.status).toBe(200);
      expect(again.body.userId).toBe(signedIn.body.userId);
      expect(again.body.token).not.toBe(signedIn.body.token);
      expect((await as(again.body).get('/v1/user')).status).toBe(200);
    });

    it('finds an existing user by the asserted email, and shows the token on a page to a browser', async () => {
      const request = await start();
      const page = await post(answer(request.id, { email: 'Reader@SAML.test' }), {
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const token = /<pre>(quire_[^<]+)<\/pre>/.exec(page.body as string)?.[1];
      expect(token).toBeDefined();
      expect((await as({ token: token! }).get('/v1/user')).body.id).toBe(reader.userId);
      // a member already: their role stays
      expect((await as(owner).get(`/v1/orgs/${org()}/members/${reader.userId}`)).body.role).toBe('read');
    });

    it('refuses forged, misdirected, stale, replayed and unsolicited responses, creating nothing', async () => {
      const other = makeKeyPair('/CN=attacker.test');
      let request = await start();
      await refusedLogin(answer(request.id, { email: 'forged@saml.test', key: other.key }), 403, /signature/i);
      const signed = answer(request.id, { email: 'victim@saml.test' });
      await refusedLogin(signed.replace('victim@saml.test', 'attacker@saml.test'), 403, /signature/i);
      await refusedLogin(answer(request.id, { sign: 'none' }), 403, /signature/i);
      await refusedLogin(answer(request.id, { audience: 'https://elsewhere.test/sp' }), 403, /audience/i);
      await refusedLogin(answer(request.id, { destination: 'https://elsewhere.test/acs' }), 403, /Destination/);
      await refusedLogin(answer(request.id, { issuer: 'https://evil.test/entity' }), 403, /Issuer/);
      await refusedLogin(answer(request.id, { status: 'urn:oasis:names:tc:SAML:2.0:status:Requester' }), 403, /status/);
      await refusedLogin(answer(request.id, { validFrom: -20, validFor: -5 }), 403, /expired/);
      await refusedLogin(answer(request.id, { validFrom: 5, validFor: 10 }), 403, /not valid yet/);
      await refusedLogin(answer('_neverIssued123'), 403, /InResponseTo/);
      // an assertion signed for another request, wrapped in a Response that names this one
      await refusedLogin(answer(request.id, { subjectRequestId: '_another' }), 403, /another request/);
      await refusedLogin(answer(request.id, { email: 'not-an-email' }), 403, /email/);

      // a good answer, too late by the service's clock
      const late = answer(request.id, { email: 'late@saml.test' });
      service.clock.advance(11 * 60_000);
      try {
        await refusedLogin(late, 403, /expired/);
      } finally {
        service.clock.advance(-11 * 60_000);
      }

      // replays: the same response again, and its assertion in answer to a new request
      request = await start();
      const first = answer(request.id, { email: 'once@saml.test', assertionId: '_assertion-once' });
      expect((await post(first)).status).toBe(200);
      await refusedLogin(first, 409, /already/);
      const next = await start();
      await refusedLogin(answer(next.id, { email: 'once@saml.test', assertionId: '_assertion-once' }), 409, /replay/);
    });

    it('refuses a DOCTYPE (external entity, entity expansion) before parsing', async () => {
      const request = await start();
      const good = answer(request.id, { email: 'xxe@saml.test' });
      const external = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${good}`;
      await refusedLogin(external, 400, /DOCTYPE/);
      const bomb = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>${good.replace('xxe@saml.test', '&b;')}`;
      await refusedLogin(bomb, 400, /DOCTYPE/);
      await service.refused(
        () =>
          service.call('POST', `${base}/acs`, {
            raw: 'SAMLResponse=%%%not-base64',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        400,
      );
      await service.refused(
        () =>
          service.call('POST', `${base}/acs`, {
            raw: 'SAMLResponse=PHg%2BPC94Pg%3D%3D&extra=1',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        400,
      );
    });

    it('starts only through an active provider of the organization, and reads forms nowhere else', async () => {
      const pending = await raw(owner, 'POST', `/v1/orgs/${org()}/saml`, { label: 'Pending' });
      const before = await service.eventCount();
      expect(
        (await fetch(`${service.url}/v1/orgs/${org()}/saml/${pending.body.id}/start`, { redirect: 'manual' })).status,
      ).toBe(409);
      expect(
        (
          await fetch(`${service.url}/v1/orgs/${outsider.organizationId}/saml/${base.split('/').pop()}/start`, {
            redirect: 'manual',
          })
        ).status,
      ).toBe(404);
      expect(await service.eventCount()).toBe(before);
      const form = await service.call('POST', `/v1/orgs/${org()}/saml`, {
        token: owner.token,
        raw: 'label=Form',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectError(form, 415);
      const metadata = await fetch(`${service.url}${base}/metadata`);
      expect(metadata.status).toBe(200);
      expect(await metadata.text()).toContain(`entityID="${spEntityID}"`);
    });
  });
});
