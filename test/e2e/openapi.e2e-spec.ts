import { type Server, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { GitBookAPI } from '@gitbook/api';
import { type Response, TestService } from '../support/service';

/**
 * OpenAPI specs of an organization over real HTTP on the embedded backends: creation and new sources answer at once
 * with `processingState: pending`, and the processing process fetches, parses and records a version in the
 * background. A local server plays the spec's host; it is admitted by FETCH_ALLOWLIST as `127.0.0.1:<port>` only,
 * so the same server under another name or port, and whatever it redirects to, is refused by the address guard.
 * Every 2xx answer is checked against the official spec by `TestService.call`.
 */

type Account = { userId: string; token: string; organizationId: string };
type Caller = { userId: string; token: string };

const FETCH_TIMEOUT_MS = 600;

const PETSTORE_YAML = `openapi: 3.1.0
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        '200':
          description: the pets
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pets'
components:
  schemas:
    Pets:
      type: array
      items:
        type: string
`;
const SWAGGER = { swagger: '2.0', info: { title: 'Swagger pets', version: '2' }, paths: {} };
const OPENAPI_30 = { openapi: '3.0.3', info: { title: 'Thirty', version: '1' }, paths: {} };

/** Each level nine aliases of the one before: expanded, the last line is 9^6 (half a million) strings. */
const ALIAS_BOMB = [
  'openapi: 3.1.0',
  'info: {title: bomb, version: "1"}',
  'paths: {}',
  'x-a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]',
  'x-b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'x-c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'x-d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'x-e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'x-f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
].join('\n');

describe('extensibility: OpenAPI specs', () => {
  let host: Server;
  let port: number;
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let reader: Caller;
  let editor: Caller;
  let stranger: Caller;
  const hanging: import('node:http').ServerResponse[] = [];

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);
  const specs = (org = ada.organizationId) => `/v1/orgs/${org}/openapi`;
  const at = (path: string) => `http://127.0.0.1:${port}${path}`;

  beforeAll(async () => {
    host = createServer((request, response) => {
      const send = (type: string, body: string) => {
        response.writeHead(200, { 'content-type': type });
        response.end(body);
      };
      switch (request.url) {
        case '/petstore.yaml':
          return send('application/yaml', PETSTORE_YAML);
        case '/swagger.json':
          return send('application/json', JSON.stringify(SWAGGER));
        case '/thirty.json':
          return send('application/json', JSON.stringify(OPENAPI_30));
        case '/not-openapi.json':
          return send('application/json', JSON.stringify({ hello: 'world' }));
        case '/bomb.yaml':
          return send('application/yaml', ALIAS_BOMB);
        case '/big.yaml':
          return send('application/yaml', `${PETSTORE_YAML}x-padding: "${'x'.repeat(70_000)}"\n`);
        case '/to-metadata':
          response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
          return response.end();
        case '/to-loopback':
          response.writeHead(302, { location: `http://localhost:${port}/petstore.yaml` });
          return response.end();
        case '/never':
          hanging.push(response);
          return; // never answers
        default:
          response.writeHead(404);
          return response.end();
      }
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    port = (host.address() as AddressInfo).port;
    service = await TestService.start({
      FETCH_ALLOWLIST: `127.0.0.1:${port}`,
      FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
      FETCH_MAX_BYTES: String(64 * 1024),
    });
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
    reader = await service.signUp('rita@example.com', { name: 'Rita' });
    editor = await service.signUp('eddie@example.com', { name: 'Eddie' });
    stranger = await service.signUp('sam@example.com', { name: 'Sam' });
    for (const [email, role] of [
      ['rita@example.com', 'read'],
      ['eddie@example.com', 'edit'],
    ]) {
      const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, { emails: [email], role });
      expect(invited.status).toBe(200);
    }
    await service.runtime.catchUp();
  });

  afterAll(async () => {
    await service?.stop();
    for (const response of hanging) response.destroy();
    host?.closeAllConnections();
    await new Promise((resolve) => host?.close(resolve));
  });

  /** Waits until the processing process has handled everything stored so far, then reads the spec. */
  async function processed(slug: string, account: Account = ada) {
    await service.runtime.processes.waitFor(await service.events.headPosition(), 10_000);
    await service.runtime.catchUp();
    const spec = await as(account.token).get(`${specs(account.organizationId)}/${slug}`);
    expect(spec.status).toBe(200);
    return spec.body;
  }

  async function create(slug: string, source: unknown, account: Account = ada) {
    service.clock.advance(1000);
    const created = await as(account.token).post(specs(account.organizationId), { slug, source });
    expect(created.status).toBe(201);
    // processing runs in the background: let it finish, so that later checks of "nothing appended" are not raced
    await service.runtime.processes.waitFor(await service.events.headPosition(), 10_000);
    return created.body;
  }

  describe('specs and their processing', () => {
    it('creates a spec from a text: pending at once, then complete with a version', async () => {
      service.clock.advance(1000);
      const created = await as(ada.token).post(specs(), { slug: 'petstore', source: { text: PETSTORE_YAML } });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(created.body.urls.location);
      expect(created.headers.get('etag')).toBeTruthy();
      expect(created.body).toEqual({
        object: 'openapi-spec',
        id: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: created.body.createdAt,
        slug: 'petstore',
        processingState: 'pending',
        permissions: { view: true, edit: true },
        urls: {
          location: `http://quire.test/v1/orgs/${ada.organizationId}/openapi/petstore`,
          app: expect.stringMatching(/^http/),
        },
      });
      const spec = await processed('petstore');
      expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
      expect(spec.lastProcessedAt).toBe(service.clock.now().toISOString());
      expect(spec).not.toHaveProperty('lastProcessErrorCode');
      expect(spec).not.toHaveProperty('sourceURL');
    });

    it('reads versions back: list, latest, by id, and their content', async () => {
      const spec = await processed('petstore');
      const base = `${specs()}/petstore/versions`;
      const list = await as(ada.token).get(base);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        items: [
          {
            object: 'openapi-spec-version',
            id: spec.lastVersion,
            createdAt: spec.lastProcessedAt,
            url: `http://quire.test${base}/${spec.lastVersion}/content`,
            urls: { location: `http://quire.test${base}/${spec.lastVersion}` },
          },
        ],
        count: 1,
      });
      const latest = await as(ada.token).get(`${base}/latest`);
      expect(latest.body).toEqual(list.body.items[0]);
      expect((await as(ada.token).get(`${base}/${spec.lastVersion}`)).body).toEqual(list.body.items[0]);

      const content = await as(ada.token).get(`${base}/latest/content`);
      expect(content.status).toBe(200);
      expect(content.body.filesystem['openapi.yaml']).toMatchObject({
        openapi: '3.1.0',
        info: { title: 'Petstore' },
        // references are kept as written
        paths: { '/pets': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } } } } } } },
      }); // prettier-ignore
      expect((await as(ada.token).get(`${base}/${spec.lastVersion}/content`)).body).toEqual(content.body);
      const raw = await as(ada.token).get(`${base}/latest/content/raw`);
      expect(raw.body).toEqual({ text: PETSTORE_YAML, format: 'yaml' });

      await refused(() => as(ada.token).get(`${base}/no-such-version`), 404);
      await refused(() => as(ada.token).get(`${base}/no-such-version/content`), 404);
    });

    it('fetches a URL source from an allowed host: Swagger 2.0 and OpenAPI 3.0 in JSON', async () => {
      await create('swagger', { url: at('/swagger.json') });
      const swagger = await processed('swagger');
      expect(swagger).toMatchObject({ processingState: 'complete', sourceURL: at('/swagger.json') });
      const version = await as(ada.token).get(`${specs()}/swagger/versions/latest`);
      expect(version.body.url).toBe(at('/swagger.json'));
      const content = await as(ada.token).get(`${specs()}/swagger/versions/latest/content`);
      expect(content.body.filesystem).toEqual({ 'openapi.json': SWAGGER });
      expect(content.body.url).toBe(at('/swagger.json'));

      await create('thirty', { url: at('/thirty.json') });
      expect(await processed('thirty')).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
    });

    it('PUT creates (201, Location) then updates (200): a new source is pending again and clears the last error', async () => {
      service.clock.advance(1000);
      const put = (source: unknown) => as(ada.token).put(`${specs()}/put-me`, { source });
      const first = await put({ text: '{"hello": "world"}' });
      expect(first.status).toBe(201);
      expect(first.headers.get('location')).toBe(first.body.urls.location);
      const failed = await processed('put-me');
      expect(failed).toMatchObject({
        processingState: 'complete',
        lastProcessErrorCode: 'PARSE_ERROR',
        lastProcessedErrors: [{ message: expect.stringMatching(/not OpenAPI/) }],
      });
      expect(failed).not.toHaveProperty('lastVersion');

      service.clock.advance(1000);
      const second = await put({ url: at('/petstore.yaml') });
      expect(second.status).toBe(200);
      expect(second.headers.get('location')).toBeNull();
      expect(second.body).toMatchObject({
        id: first.body.id,
        processingState: 'pending',
        sourceURL: at('/petstore.yaml'),
      });
      expect(second.body).not.toHaveProperty('lastProcessErrorCode');
      const done = await processed('put-me');
      expect(done).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
      expect(done).not.toHaveProperty('lastProcessErrorCode');

      // a third source: a text again, so the source URL goes
      const third = await put({ text: JSON.stringify(OPENAPI_30) });
      expect(third.body).not.toHaveProperty('sourceURL');
      const last = await processed('put-me');
      expect(last.lastVersion).not.toBe(done.lastVersion);
      const versions = await as(ada.token).get(`${specs()}/put-me/versions`);
      expect(versions.body.items.map((one: { id: string }) => one.id)).toEqual([last.lastVersion, done.lastVersion]);
    });

    it('lists the organization’s specs oldest first, with pagination', async () => {
      const page = await as(ada.token).get(`${specs()}?limit=2`);
      expect(page.status).toBe(200);
      expect(page.body.items.map((one: { slug: string }) => one.slug)).toEqual(['petstore', 'swagger']);
      expect(page.body.count).toBeGreaterThanOrEqual(4);
      const next = await as(ada.token).get(`${specs()}?limit=2&page=${encodeURIComponent(page.body.next.page)}`);
      expect(next.body.items.map((one: { slug: string }) => one.slug)).toEqual(['thirty', 'put-me']);
    });

    it('refuses a slug in use (409), with nothing appended', async () => {
      await refused(() => as(ada.token).post(specs(), { slug: 'petstore', source: { text: PETSTORE_YAML } }), 409);
    });

    it('deletes a spec (204) with its versions; again is 204; a new spec under the slug starts afresh', async () => {
      await create('short-lived', { text: PETSTORE_YAML });
      const old = await processed('short-lived');
      const deleted = await as(ada.token).delete(`${specs()}/short-lived`);
      expect(deleted.status).toBe(204);
      expect((await as(ada.token).delete(`${specs()}/short-lived`)).status).toBe(204);
      await refused(() => as(ada.token).get(`${specs()}/short-lived`), 404);
      await refused(() => as(ada.token).get(`${specs()}/short-lived/versions`), 404);
      await refused(() => as(ada.token).delete(`${specs()}/never-created`), 404);

      const again = await create('short-lived', { url: at('/missing.yaml') });
      expect(again.id).not.toBe(old.id);
      await processed('short-lived');
      expect((await as(ada.token).get(`${specs()}/short-lived/versions`)).body).toEqual({ items: [], count: 0 });
      await refused(() => as(ada.token).get(`${specs()}/short-lived/versions/${old.lastVersion}`), 404);
      await refused(() => as(ada.token).get(`${specs()}/short-lived/versions/latest`), 404);
    });
  });

  describe('sources that fail', () => {
    it('ends FETCH_ERROR for a non-2xx answer and for a body over FETCH_MAX_BYTES', async () => {
      await create('missing', { url: at('/missing.yaml') });
      expect(await processed('missing')).toMatchObject({
        processingState: 'complete',
        lastProcessErrorCode: 'FETCH_ERROR',
      });
      await create('too-big', { url: at('/big.yaml') });
      expect(await processed('too-big')).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR' });
    });

    it('ends FETCH_ERROR for loopback, link-local and metadata addresses, directly or by a redirect', async () => {
      const urls = [
        `${service.url}/v1/user`, // the service itself: 127.0.0.1 on a port the allowlist does not name
        `http://localhost:${port}/petstore.yaml`, // the allowed server under another name
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]:80/',
        at('/to-metadata'),
        at('/to-loopback'),
      ];
      for (const [index, url] of urls.entries()) {
        await create(`ssrf-${index}`, { url });
        const spec = await processed(`ssrf-${index}`);
        expect({ url, code: spec.lastProcessErrorCode, state: spec.processingState }).toEqual({
          url,
          code: 'FETCH_ERROR',
          state: 'complete',
        });
        expect(spec).not.toHaveProperty('lastVersion');
      }
    });

    it('ends FETCH_TIMEOUT within the configured limit when the server never answers', async () => {
      const began = Date.now();
      await create('never', { url: at('/never') });
      const spec = await processed('never');
      const took = Date.now() - began;
      expect(spec).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_TIMEOUT' });
      expect(took).toBeGreaterThanOrEqual(FETCH_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(FETCH_TIMEOUT_MS + 2000);
    });

    it('ends PARSE_ERROR for a document that is not OpenAPI, for text that is not JSON or YAML, and for a YAML alias bomb', async () => {
      await create('not-openapi', { url: at('/not-openapi.json') });
      expect(await processed('not-openapi')).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });
      await create('garbage', { text: '{"openapi": "3.1.0", ' });
      expect(await processed('garbage')).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });
      const before = process.memoryUsage().heapUsed;
      await create('bomb', { url: at('/bomb.yaml') });
      const bomb = await processed('bomb');
      expect(bomb).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });
      expect(bomb.lastProcessedErrors[0].message).toMatch(/alias/i);
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
      await create('bomb-text', { text: ALIAS_BOMB });
      expect(await processed('bomb-text')).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });
    });

    it('never follows a $ref to another file or address', async () => {
      const document = {
        openapi: '3.1.0',
        info: { title: 'Refs', version: '1' },
        paths: {
          '/a': {
            get: {
              responses: {
                200: { description: 'ok', content: { 'application/json': { schema: { $ref: at('/petstore.yaml') } } } },
                201: { description: 'ok', content: { 'application/json': { schema: { $ref: '/etc/passwd' } } } },
              },
            },
          },
        },
      };
      let requests = 0;
      const count = () => requests++;
      host.on('request', count);
      await create('refs', { text: JSON.stringify(document) });
      const spec = await processed('refs');
      host.off('request', count);
      expect(spec.processingState).toBe('complete');
      expect(requests).toBe(0);
      const content = await as(ada.token).get(`${specs()}/refs/versions/latest/content`);
      expect(JSON.stringify(content.body)).not.toMatch(/root:/);
    });
  });

  describe('bad input', () => {
    it('refuses bad slugs and sources with the field named, and appends nothing', async () => {
      const post = (body: unknown) => () => as(ada.token).post(specs(), body);
      const text = { text: PETSTORE_YAML };
      for (const slug of ['Petstore', 'pet_store', 'pet--store', '-pet', '', 'a'.repeat(101)]) {
        await refused(post({ slug, source: text }), 400, /slug/);
      }
      await refused(() => as(ada.token).put(`${specs()}/PetStore`, { source: text }), 400, /slug/);
      await refused(post({ source: text }), 400, /slug/);
      await refused(post({ slug: 'x' }), 400, /source/);
      await refused(post({ slug: 'x', source: 'https://example.com/a.yaml' }), 400, /source/);
      await refused(post({ slug: 'x', source: {} }), 400, /source/);
      await refused(post({ slug: 'x', source: { url: at('/a'), text: 'b' } }), 400, /source/);
      await refused(post({ slug: 'x', source: { text: '' } }), 400, /source\.text/);
      await refused(post({ slug: 'x', source: { url: 'ftp://example.com/a.yaml' } }), 400, /source\.url/);
      await refused(post({ slug: 'x', source: { url: 'not a url' } }), 400, /source\.url/);
      await refused(
        post({ slug: 'x', source: { url: `https://example.com/${'x'.repeat(2040)}` } }),
        400,
        /source\.url/,
      );
      await refused(post({ slug: 'x', source: { url: at('/a'), visibility: 'public' } }), 400, /source\.visibility/);
      await refused(post({ slug: 'x', source: text, visibility: 'public' }), 400, /visibility/);
      await refused(() => as(ada.token).put(`${specs()}/x`, { source: text, slug: 'y' }), 400, /slug/);
      await refused(() => as(ada.token).put(`${specs()}/x`, {}), 400, /source/);
      await refused(() => as(ada.token).get(`${specs()}?limit=1001`), 400, /limit/);
    });

    it('accepts a slug of 100 characters', async () => {
      const slug = 'a'.repeat(100);
      const created = await create(slug, { text: PETSTORE_YAML });
      expect(created.slug).toBe(slug);
    });
  });

  describe('who may do what', () => {
    it('lets members read specs and versions, and refuses their changes (403) with nothing appended', async () => {
      for (const caller of [reader, editor]) {
        const list = await as(caller.token).get(specs());
        expect(list.status).toBe(200);
        const spec = await as(caller.token).get(`${specs()}/petstore`);
        expect(spec.body.permissions).toEqual({ view: true, edit: false });
        expect((await as(caller.token).get(`${specs()}/petstore/versions`)).status).toBe(200);
        expect((await as(caller.token).get(`${specs()}/petstore/versions/latest`)).status).toBe(200);
        expect((await as(caller.token).get(`${specs()}/petstore/versions/latest/content`)).status).toBe(200);
        const source = { text: PETSTORE_YAML };
        await refused(() => as(caller.token).post(specs(), { slug: 'mine', source }), 403, /admin/);
        await refused(() => as(caller.token).put(`${specs()}/petstore`, { source }), 403, /admin/);
        await refused(() => as(caller.token).put(`${specs()}/brand-new`, { source }), 403, /admin/);
        await refused(() => as(caller.token).delete(`${specs()}/petstore`), 403, /admin/);
      }
    });

    it('hides another organization’s specs (404), with nothing appended', async () => {
      const source = { text: PETSTORE_YAML };
      for (const caller of [stranger, bob]) {
        await refused(() => as(caller.token).get(specs()), 404);
        await refused(() => as(caller.token).get(`${specs()}/petstore`), 404);
        await refused(() => as(caller.token).get(`${specs()}/petstore/versions`), 404);
        await refused(() => as(caller.token).get(`${specs()}/petstore/versions/latest`), 404);
        await refused(() => as(caller.token).get(`${specs()}/petstore/versions/latest/content`), 404);
        await refused(() => as(caller.token).post(specs(), { slug: 'theirs', source }), 404);
        await refused(() => as(caller.token).put(`${specs()}/petstore`, { source }), 404);
        await refused(() => as(caller.token).delete(`${specs()}/petstore`), 404);
      }
      // Bob's own spec under the same slug is his, and Ada does not see it
      await create('petstore', { text: PETSTORE_YAML }, bob);
      await refused(() => as(ada.token).get(`${specs(bob.organizationId)}/petstore`), 404);
      expect((await as(bob.token).get(specs(bob.organizationId))).body.count).toBe(1);
    });

    it('refuses a call without a token (401)', async () => {
      await refused(() => service.call('GET', specs()), 401);
      await refused(() => service.call('POST', specs(), { body: { slug: 'x', source: { text: 'x' } } }), 401);
    });
  });

  it('works through the official client', async () => {
    const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
    const orgId = ada.organizationId;
    const created = await api.orgs.createOpenApiSpec(orgId, { slug: 'client', source: { text: PETSTORE_YAML } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'openapi-spec', slug: 'client', processingState: 'pending' });
    await processed('client');
    const read = await api.orgs.getOpenApiSpecBySlug(orgId, 'client');
    expect(read.data.processingState).toBe('complete');
    const latest = await api.orgs.getLatestOpenApiSpecVersion(orgId, 'client');
    expect(latest.data.id).toBe(read.data.lastVersion);
    const content = await api.orgs.getLatestOpenApiSpecVersionContent(orgId, 'client');
    expect(content.data.filesystem).toHaveProperty(['openapi.yaml']);
    const raw = await api.orgs.getLatestOpenApiSpecVersionContentRaw(orgId, 'client');
    expect(raw.data).toEqual({ text: PETSTORE_YAML, format: 'yaml' });
    const versions = await api.orgs.listOpenApiSpecVersions(orgId, 'client');
    expect(versions.data.items).toHaveLength(1);
    const byId = await api.orgs.getOpenApiSpecVersionContentById(orgId, 'client', latest.data.id);
    expect(byId.data).toEqual(content.data);
    const updated = await api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'client', {
      source: { url: at('/swagger.json') },
    });
    expect(updated.status).toBe(200);
    expect(updated.data.sourceURL).toBe(at('/swagger.json'));
    const list = await api.orgs.listOpenApiSpecs(orgId, { limit: 1000 });
    expect(list.data.items.map((one) => one.slug)).toContain('client');
    expect((await api.orgs.deleteOpenApiSpecBySlug(orgId, 'client')).status).toBe(204);
    await expect(api.orgs.getOpenApiSpecBySlug(orgId, 'client')).rejects.toMatchObject({ code: 404 });
  });

  it('rebuilds its read models from the events and answers the same', async () => {
    const before = {
      list: await as(ada.token).get(`${specs()}?limit=1000`),
      versions: await as(ada.token).get(`${specs()}/put-me/versions`),
    };
    await service.reads.dropCollection('openapi_specs');
    await service.reads.dropCollection('openapi_spec_versions');
    expect((await as(ada.token).get(specs())).body.count).toBe(0);
    await service.runtime.projections.rebuild('openapi_specs');
    await service.runtime.projections.rebuild('openapi_spec_versions');
    expect((await as(ada.token).get(`${specs()}?limit=1000`)).body).toEqual(before.list.body);
    expect((await as(ada.token).get(`${specs()}/put-me/versions`)).body).toEqual(before.versions.body);
  });

  it('validated every OpenAPI answer against the official spec', () => {
    expect([...service.validated].sort()).toEqual(
      expect.arrayContaining([
        'createOpenAPISpec',
        'createOrUpdateOpenAPISpecBySlug',
        'getLatestOpenAPISpecVersion',
        'getLatestOpenAPISpecVersionContent',
        'getLatestOpenAPISpecVersionContentRaw',
        'getOpenAPISpecBySlug',
        'getOpenAPISpecVersionById',
        'getOpenAPISpecVersionContentById',
        'listOpenAPISpecVersions',
        'listOpenAPISpecs',
      ]),
    );
  });
});
