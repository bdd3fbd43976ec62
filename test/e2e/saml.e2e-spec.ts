import { GitBookAPI, MemberRole } from '@gitbook/api';
import { makeKeyPair } from '../support/saml-idp';
import { TestService, expectError } from '../support/service';

type Account = { userId: string; token: string; organizationId: string };

/**
 * SAML providers over real HTTP (who may manage them, their limits and states, another organization's ones, the
 * official client), and the sign-in through a test identity provider made here.
 */
describe('SAML (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let reader: Account;
  let outsider: Account;
  let teamId: string;
  let otherTeamId: string;
  const idp = makeKeyPair();

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
    service = await TestService.start();
    owner = await service.signUp('owner@saml.test', { name: 'Owner', org: 'Saml Inc' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    reader = await service.signUp('reader@saml.test', { name: 'Reader' });
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
        certificate: idp.cert,
        ssoURL: 'https://idp.test/sso',
        defaultRole: 'comment',
        defaultTeam: teamId,
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        status: 'active',
        entityID: 'https://idp.test/entity',
        certificate: idp.cert,
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
        certificate: idp.cert,
        ssoURL: 'https://entra.test/sso',
      });
      const id = created.body.id;
      const path = `/v1/orgs/${org()}/saml/${id}`;
      await service.refused(() => as(reader).get(`/v1/orgs/${org()}/saml`), 403);
      await service.refused(() => as(reader).get(path), 403);
      await service.refused(() => as(reader).post(`/v1/orgs/${org()}/saml`, { label: 'Mine' }), 403);
      await service.refused(() => as(reader).patch(path, { label: 'Mine' }), 403);
      await service.refused(() => as(reader).delete(path), 403);
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

    it('works through the official client', async () => {
      const client = new GitBookAPI({ authToken: owner.token, endpoint: service.url });
      const created = await client.orgs.createOrganizationSamlProvider(org(), {
        label: 'Client',
        entityID: 'https://client.test',
        certificate: idp.cert,
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
});
