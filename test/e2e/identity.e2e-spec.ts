import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { GitBookAPI } from '@gitbook/api';
import { RATE_LIMITED_TO_THREE, type Response, TestService, expectError } from '../support/service';
import { servedRoutes } from '../support/routes';

/**
 * Users, tokens, organizations and members over real HTTP on the embedded backends. Every 2xx answer of an
 * official operation is checked against the official schema by `TestService.call`.
 */
describe('identity and organizations (e2e)', () => {
  let service: TestService;
  let ada: { userId: string; token: string; organizationId: string };
  let bob: { userId: string; token: string; organizationId: string };

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@example.com', { name: 'Ada Lovelace', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
  });

  afterAll(async () => {
    await service?.stop();
  });

  const as = (token: string) => ({
    get: (path: string, headers?: Record<string, string>) => service.call('GET', path, { token, headers }),
    post: (path: string, body?: unknown) => service.call('POST', path, { token, body }),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) =>
      service.call('PATCH', path, { token, body, headers }),
    delete: (path: string) => service.call('DELETE', path, { token }),
  });

  /** Runs a refused request and checks that it appended no event. */
  async function refused(run: () => Promise<Response>, status: number, message?: RegExp) {
    const before = await service.eventCount();
    const response = await run();
    expectError(response, status, message);
    expect(await service.eventCount()).toBe(before);
  }

  describe('authentication', () => {
    it('answers the caller for a valid token', async () => {
      const response = await as(ada.token).get('/v1/user');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        object: 'user',
        id: ada.userId,
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        urls: { location: `http://quire.test/v1/users/${ada.userId}` },
      });
    });

    it('refuses a missing, malformed or unknown token with 401', async () => {
      expectError(await service.call('GET', '/v1/user'), 401);
      expectError(await service.call('GET', '/v1/user', { headers: { authorization: `Basic ${ada.token}` } }), 401);
      expectError(await service.call('GET', '/v1/user', { token: 'quire_not-a-real-token' }), 401);
      expectError(await service.call('GET', '/v1/user', { token: `${ada.token}x` }), 401);
    });

    it('creates, lists and revokes tokens; a revoked token fails on the next request', async () => {
      const created = await as(ada.token).post('/v1/user/tokens', { label: 'laptop' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        object: 'api-token',
        label: 'laptop',
        token: expect.stringMatching(/^quire_/),
      });
      const secret: string = created.body.token;
      expect(Buffer.from(secret.slice('quire_'.length), 'base64url').length).toBeGreaterThanOrEqual(16);
      expect((await as(secret).get('/v1/user')).status).toBe(200);

      const listed = await as(ada.token).get('/v1/user/tokens');
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((t: { id: string }) => t.id)).toContain(created.body.id);
      expect(JSON.stringify(listed.body)).not.toContain(secret);
      expect(listed.body.count).toBe(listed.body.items.length);

      expect((await as(ada.token).delete(`/v1/user/tokens/${created.body.id}`)).status).toBe(204);
      expectError(await as(secret).get('/v1/user'), 401);
      const after = await as(ada.token).get('/v1/user/tokens');
      expect(after.body.items.map((t: { id: string }) => t.id)).not.toContain(created.body.id);
    });

    it('never stores a token in clear', async () => {
      const created = await as(ada.token).post('/v1/user/tokens', {});
      const all = JSON.stringify(
        (await service.events.readAll()).map((event) => ({ ...event, position: String(event.position) })),
      );
      expect(all).not.toContain(created.body.token);
      expect(all).not.toContain(ada.token);
    });

    it('hides other users tokens and validates token bodies', async () => {
      const created = await as(ada.token).post('/v1/user/tokens', { label: 'mine' });
      await refused(() => as(bob.token).delete(`/v1/user/tokens/${created.body.id}`), 404);
      await refused(() => as(ada.token).post('/v1/user/tokens', { label: 'x'.repeat(51) }), 400, /label/);
      await refused(() => as(ada.token).post('/v1/user/tokens', { label: 5 }), 400, /label/);
      await refused(() => as(ada.token).post('/v1/user/tokens', { scopes: ['all'] }), 400, /scopes/);
    });
  });

  describe('organizations', () => {
    it('creates an organization whose creator is admin, with a Location', async () => {
      const created = await as(ada.token).post('/v1/orgs', { title: 'Second Org' });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`http://quire.test/v1/orgs/${created.body.id}`);
      expect(created.body).toMatchObject({
        object: 'organization',
        title: 'Second Org',
        type: 'business',
        permissions: { admin: true, view: true, createContent: true },
        urls: { location: `http://quire.test/v1/orgs/${created.body.id}` },
      });
      const members = await as(ada.token).get(`/v1/orgs/${created.body.id}/members`);
      expect(members.body.items).toEqual([expect.objectContaining({ id: ada.userId, role: 'admin' })]);
    });

    it('refuses bad organization bodies with a message naming the field', async () => {
      await refused(() => as(ada.token).post('/v1/orgs', {}), 400, /title/);
      await refused(() => as(ada.token).post('/v1/orgs', { title: 'x' }), 400, /title/);
      await refused(() => as(ada.token).post('/v1/orgs', { title: 'x'.repeat(256) }), 400, /title/);
      await refused(() => as(ada.token).post('/v1/orgs', { title: 42 }), 400, /title/);
      await refused(() => as(ada.token).post('/v1/orgs', { title: 'Fine', plan: 'enterprise' }), 400, /plan/);
      await refused(() => service.call('POST', '/v1/orgs', { token: ada.token, raw: '{"title": ' }), 400);
    });

    it('lists only the organizations the caller belongs to', async () => {
      const listed = await as(bob.token).get('/v1/orgs');
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((o: { id: string }) => o.id)).toEqual([bob.organizationId]);
      expect(listed.body.count).toBe(1);
    });

    it('reads one organization with an ETag; another organization is 404', async () => {
      const read = await as(ada.token).get(`/v1/orgs/${ada.organizationId}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('etag')).toMatch(/^"\d+"$/);
      expect(read.body).toMatchObject({ id: ada.organizationId, title: 'Analytical Engines', plan: 'free' });
      expectError(await as(bob.token).get(`/v1/orgs/${ada.organizationId}`), 404);
      expectError(await as(ada.token).get('/v1/orgs/does-not-exist'), 404);
    });

    it('updates every seed setting, honouring If-Match', async () => {
      const path = `/v1/orgs/${ada.organizationId}`;
      const before = await as(ada.token).get(path);
      const etag = before.headers.get('etag')!;
      const changes = {
        title: 'Engines Ltd',
        emailDomains: ['example.com'],
        hostname: 'engines',
        defaultRole: 'read',
        defaultContent: null,
        logo: 'https://example.com/logo.png',
        sso: false,
        ai: true,
        inviteLinks: true,
      };
      const updated = await as(ada.token).patch(path, changes, { 'if-match': etag });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        title: 'Engines Ltd',
        emailDomains: ['example.com'],
        hostname: 'engines',
        defaultRole: 'read',
        ai: true,
        inviteLinks: true,
        urls: { logo: 'https://example.com/logo.png' },
      });
      expect(updated.headers.get('etag')).not.toBe(etag);
      // read-your-writes: the very next GET shows the change
      expect((await as(ada.token).get(path)).body.title).toBe('Engines Ltd');
      await refused(() => as(ada.token).patch(path, { title: 'Stale' }, { 'if-match': etag }), 412);
      await refused(() => as(ada.token).patch(path, { title: 'Bad' }, { 'if-match': 'garbage' }), 400, /If-Match/i);
    });

    it('refuses invalid settings and strangers', async () => {
      const path = `/v1/orgs/${ada.organizationId}`;
      await refused(() => as(ada.token).patch(path, { hostname: 'Not A Host!' }), 400, /hostname/);
      await refused(() => as(ada.token).patch(path, { defaultRole: 'owner' }), 400, /defaultRole/);
      await refused(() => as(ada.token).patch(path, { title: 'x'.repeat(256) }), 400, /title/);
      await refused(() => as(ada.token).patch(path, { sso: 'yes' }), 400, /sso/);
      await refused(() => as(ada.token).patch(path, { id: 'other' }), 400, /id/);
      await refused(() => as(ada.token).patch(path, { logo: 'javascript:alert(1)' }), 400, /logo/);
      await refused(() => as(bob.token).patch(path, { title: 'Mine now' }), 404);
    });
  });

  describe('members and invites', () => {
    let carol: { userId: string; token: string };

    beforeAll(async () => {
      carol = await service.signUp('carol@example.com', { name: 'Carol' });
    });

    it('adds a known user at once and lets a member read but not administer', async () => {
      const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, {
        emails: ['Carol@Example.com'],
        role: 'read',
      });
      expect(invited.status).toBe(200);
      expect(invited.body).toEqual({ users: [carol.userId], invited: 0 });

      const read = await as(carol.token).get(`/v1/orgs/${ada.organizationId}`);
      expect(read.body.permissions).toMatchObject({ view: true, admin: false, createContent: false });
      await refused(() => as(carol.token).patch(`/v1/orgs/${ada.organizationId}`, { title: 'Carol rules' }), 403);
      await refused(
        () => as(carol.token).post(`/v1/orgs/${ada.organizationId}/invites`, { emails: ['x@example.com'] }),
        403,
      );
      await refused(
        () => as(carol.token).patch(`/v1/orgs/${ada.organizationId}/members/${ada.userId}`, { role: 'read' }),
        403,
      );
    });

    it('keeps an invite for an unknown address until that user signs up', async () => {
      const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, {
        emails: ['dave@example.com'],
        role: 'edit',
      });
      expect(invited.body).toEqual({ users: [], invited: 1 });
      const dave = await service.signUp('dave@example.com', { name: 'Dave' });
      const head = await service.events.headPosition();
      await service.runtime.processes.waitFor(head);
      await service.runtime.catchUp();
      const member = await as(ada.token).get(`/v1/orgs/${ada.organizationId}/members/${dave.userId}`);
      expect(member.status).toBe(200);
      expect(member.body).toMatchObject({ id: dave.userId, role: 'edit', user: { email: 'dave@example.com' } });
      const orgs = await as(dave.token).get('/v1/orgs');
      expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([ada.organizationId]);
    });

    it('refuses bad invites', async () => {
      const path = `/v1/orgs/${ada.organizationId}/invites`;
      await refused(() => as(ada.token).post(path, { emails: [] }), 400, /emails/);
      await refused(() => as(ada.token).post(path, { emails: ['not-an-email'] }), 400, /emails/);
      await refused(() => as(ada.token).post(path, { emails: ['a@example.com'], role: 'boss' }), 400, /role/);
      await refused(() => as(bob.token).post(path, { emails: ['a@example.com'] }), 404);
    });

    it('lists members with role and text filters and pages through them', async () => {
      const path = `/v1/orgs/${ada.organizationId}/members`;
      const all = await as(ada.token).get(path);
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(3);
      const admins = await as(ada.token).get(`${path}?role=admin`);
      expect(admins.body.items.map((m: { id: string }) => m.id)).toEqual([ada.userId]);
      const search = await as(ada.token).get(`${path}?search=CAROL`);
      expect(search.body.items.map((m: { id: string }) => m.id)).toEqual([carol.userId]);

      const seen: string[] = [];
      let next = `${path}?limit=1`;
      for (;;) {
        const page = await as(ada.token).get(next);
        expect(page.status).toBe(200);
        expect(page.body.count).toBe(3);
        seen.push(...page.body.items.map((m: { id: string }) => m.id));
        if (!page.body.next) break;
        next = `${path}?limit=1&page=${encodeURIComponent(page.body.next.page)}`;
      }
      expect(seen.sort()).toEqual(all.body.items.map((m: { id: string }) => m.id).sort());
    });

    it('sorts members by name and pages a search with cursors, names being opened in memory', async () => {
      const path = `/v1/orgs/${ada.organizationId}/members`;
      const walk = async (query: string) => {
        const seen: string[] = [];
        let next = `${path}?${query}&limit=1`;
        for (;;) {
          const page = await as(ada.token).get(next);
          expect(page.status).toBe(200);
          expect(page.body.items.length).toBeLessThanOrEqual(1);
          seen.push(...page.body.items.map((m: { user: { displayName: string } }) => m.user.displayName));
          if (!page.body.next) return { seen, count: page.body.count as number };
          next = `${path}?${query}&limit=1&page=${encodeURIComponent(page.body.next.page)}`;
        }
      };
      expect(await walk('sort=name&order=asc')).toEqual({ seen: ['Ada Lovelace', 'Carol', 'Dave'], count: 3 });
      expect(await walk('sort=name&order=desc')).toEqual({ seen: ['Dave', 'Carol', 'Ada Lovelace'], count: 3 });
      expect(await walk('search=EXAMPLE.COM&sort=name&order=asc')).toEqual({
        seen: ['Ada Lovelace', 'Carol', 'Dave'],
        count: 3,
      });
      expect(await walk('search=a&role=edit')).toEqual({ seen: ['Dave'], count: 1 });
      const first = await as(ada.token).get(`${path}?sort=name&limit=1`);
      expectError(
        await as(ada.token).get(`${path}?limit=1&page=${encodeURIComponent(first.body.next.page)}`),
        400,
        /page/,
      );
    });

    it('refuses bad limits and cursors', async () => {
      const path = `/v1/orgs/${ada.organizationId}/members`;
      expectError(await as(ada.token).get(`${path}?limit=1001`), 400, /limit/);
      expectError(await as(ada.token).get(`${path}?limit=-1`), 400, /limit/);
      expectError(await as(ada.token).get(`${path}?limit=ten`), 400, /limit/);
      expectError(await as(ada.token).get(`${path}?limit=`), 400, /limit/);
      expectError(await as(ada.token).get(`${path}?limit=1e2`), 400, /limit/);
      expectError(await as(ada.token).get(`${path}?page=forged`), 400, /page/);
      const first = await as(ada.token).get(`${path}?limit=1`);
      const page: string = first.body.next.page;
      const tampered = page.slice(0, -2) + (page.endsWith('A') ? 'BB' : 'AA');
      expectError(await as(ada.token).get(`${path}?limit=1&page=${encodeURIComponent(tampered)}`), 400, /page/);
      // a cursor of another list is refused too
      expectError(await as(ada.token).get(`${path}?limit=1&role=read&page=${encodeURIComponent(page)}`), 400, /page/);
      expect((await as(ada.token).get(`${path}?limit=0`)).body).toMatchObject({ items: [], count: 3 });
      expectError(await as(bob.token).get(path), 404);
    });

    it('changes roles, never demoting or removing the last admin', async () => {
      const member = `/v1/orgs/${ada.organizationId}/members/${carol.userId}`;
      const changed = await as(ada.token).patch(member, { role: 'edit' });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ id: carol.userId, role: 'edit' });
      await refused(() => as(ada.token).patch(member, { role: 'king' }), 400, /role/);
      await refused(() => as(ada.token).patch(member, { role: 'read', extra: 1 }), 400, /extra/);
      const self = `/v1/orgs/${ada.organizationId}/members/${ada.userId}`;
      await refused(() => as(ada.token).patch(self, { role: 'read' }), 409, /last admin/);
      await refused(() => as(ada.token).delete(self), 409, /last admin/);
      await refused(
        () => as(ada.token).patch(`/v1/orgs/${ada.organizationId}/members/${bob.userId}`, { role: 'read' }),
        404,
      );
    });

    it('removes members; a member may leave; removal is idempotent', async () => {
      const org = (await as(bob.token).post('/v1/orgs', { title: 'Leaving Party' })).body.id as string;
      await as(bob.token).post(`/v1/orgs/${org}/invites`, { emails: ['carol@example.com'], role: 'comment' });
      expect((await as(carol.token).get(`/v1/orgs/${org}`)).status).toBe(200);
      expect((await as(carol.token).delete(`/v1/orgs/${org}/members/${carol.userId}`)).status).toBe(204);
      expectError(await as(carol.token).get(`/v1/orgs/${org}`), 404);
      expect((await as(bob.token).delete(`/v1/orgs/${org}/members/${carol.userId}`)).status).toBe(204);
      expectError(await as(carol.token).delete(`/v1/orgs/${org}/members/${bob.userId}`), 404);
    });
  });

  describe('HTTP conventions', () => {
    it('answers unknown routes, oversized and malformed bodies in the error shape', async () => {
      expectError(await as(ada.token).get('/v1/nowhere'), 404);
      expectError(await service.call('GET', '/nowhere'), 404);
      const big = JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) });
      expectError(await service.call('POST', '/v1/orgs', { token: ada.token, raw: big }), 413);
      expectError(await service.call('POST', '/v1/orgs', { token: ada.token, raw: 'not json' }), 400);
    });

    it('sets security headers and request ids', async () => {
      const response = await as(ada.token).get('/v1/user', { 'x-request-id': 'trace-me-123' });
      expect(response.headers.get('x-request-id')).toBe('trace-me-123');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      // JSON responses: nothing may load, frame or cache them
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      // errors too
      const missing = await service.call('GET', '/v1/user');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      // the documentation page gets the HTML set, which lets its own scripts and styles run
      const docs = await service.call('GET', '/docs');
      expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('reports health', async () => {
      const health = await service.call('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({
        status: 'ok',
        checks: { eventStore: 'up', readStore: 'up', keyStore: 'up', blobStore: 'up' },
      });
    });

    it('reports itself degraded while the blob store cannot be written to, and well again after', async () => {
      const blobs = service.config.blobStore.driver === 'files' ? service.config.blobStore.directory : undefined;
      if (blobs === undefined) throw new Error('the test service keeps its blobs in files');
      const aside = `${blobs}.aside`;
      const existed = existsSync(blobs);
      if (existed) renameSync(blobs, aside);
      writeFileSync(blobs, 'a file where the folder should be');
      try {
        const degraded = await service.call('GET', '/health');
        expect(degraded.status).toBe(503);
        expect(degraded.body).toMatchObject({
          status: 'degraded',
          error: { code: 503, message: 'the blob store cannot be written to' },
          checks: { eventStore: 'up', blobStore: 'down' },
        });
      } finally {
        rmSync(blobs, { force: true });
        if (existed) renameSync(aside, blobs);
      }
      expect((await service.call('GET', '/health')).status).toBe(200);
    });

    it('publishes its own OpenAPI document with every route', async () => {
      const document = await service.call('GET', '/openapi.json');
      expect(document.status).toBe(200);
      const paths = Object.keys(document.body.paths);
      for (const path of [
        '/v1/user',
        '/v1/user/tokens',
        '/v1/user/tokens/{tokenId}',
        '/v1/orgs',
        '/v1/orgs/{organizationId}',
        '/v1/orgs/{organizationId}/members',
        '/v1/orgs/{organizationId}/members/{userId}',
        '/v1/orgs/{organizationId}/invites',
        '/health',
      ]) {
        expect(paths).toContain(path);
      }
      expect((await service.call('GET', '/docs')).status).toBe(200);

      // every route the server answers (read off Fastify's route tree) is documented with its method
      const served = servedRoutes(service.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }));
      const api = served.filter(({ path }) => !path.startsWith('/docs') && path !== '/openapi.json');
      expect(api.length).toBeGreaterThan(30);
      expect(api).toContainEqual({ path: '/v1/spaces/{spaceId}/content/files/{fileId}', method: 'get' });
      expect(api).toContainEqual({ path: '/v1/orgs/{organizationId}/members/{userId}', method: 'delete' });
      const missing = api.filter(({ path, method }) => !document.body.paths[path]?.[method]);
      expect(missing).toEqual([]);
    });
  });

  describe('the official client', () => {
    it('works unchanged against the service', async () => {
      const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
      const user = await api.user.getAuthenticatedUser();
      expect(user.data.id).toBe(ada.userId);
      const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
      expect(orgs.data.items.map((o) => o.id)).toContain(ada.organizationId);
      const org = await api.orgs.getOrganizationById(ada.organizationId);
      expect(org.data.object).toBe('organization');
      const members = await api.orgs.listMembersInOrganizationById(ada.organizationId, { limit: 2 });
      expect(members.data.items.length).toBeLessThanOrEqual(2);
      await expect(api.orgs.getOrganizationById(bob.organizationId)).rejects.toMatchObject({ code: 404 });
    });
  });

  afterAll(() => {
    // Every identity operation of the official spec was exercised and validated above.
    const expected = [
      'getAuthenticatedUser',
      'listOrganizationsForAuthenticatedUser',
      'createOrganization',
      'getOrganizationById',
      'updateOrganizationById',
      'listMembersInOrganizationById',
      'getMemberInOrganizationById',
      'updateMemberInOrganizationById',
      'removeMemberFromOrganizationById',
      'inviteUsersToOrganization',
    ];
    if (service) expect([...service.validated].sort()).toEqual(expect.arrayContaining(expected));
  });
});

describe('rate limiting (e2e)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start(RATE_LIMITED_TO_THREE);
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('answers 429 with Retry-After and X-RateLimit headers past the limit', async () => {
    const { token } = await service.signUp('eve@example.com');
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await service.call('GET', '/v1/user', { token });
      statuses.push(last.status);
      if (i === 0) expect(last.headers.get('x-ratelimit-limit')).toBe('3');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expectError(last!, 429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('keys a valid token by its id: another spelling of a limited token is limited too', async () => {
    const { token } = await service.signUp('mallory@example.com');
    for (let i = 0; i < 3; i++) expect((await service.call('GET', '/v1/user', { token })).status).toBe(200);
    for (const header of [`bearer ${token}`, `BEARER ${token}`, `Bearer  ${token}`, `Bearer ${token} `]) {
      const response = await service.call('GET', '/v1/user', { headers: { authorization: header } });
      expect({ header, status: response.status }).toEqual({ header, status: 429 });
    }
  });

  it('limits failed authentications per address, however many tokens are tried, and not the valid tokens', async () => {
    const { token } = await service.signUp('trent@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await service.call('GET', '/v1/user', { token: `quire_guess${i}` })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // anonymous calls share the address's allowance, and a token that is not even well-formed too
    expect((await service.call('GET', '/v1/user', { headers: {} })).status).toBe(429);
    expect((await service.call('GET', '/v1/user', { headers: { authorization: 'Basic abc' } })).status).toBe(429);
    // a signed-in caller on the same address keeps their own allowance
    expect((await service.call('GET', '/v1/user', { token })).status).toBe(200);
  });
});
