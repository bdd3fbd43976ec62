import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/api/src/config';
import { GitBookAPI, IntegrationScope, IntegrationVisibility } from '@gitbook/api';
import { type Response, TestService } from '../support/service';

/**
 * Integrations and their installations over real HTTP on the embedded backends. Every 2xx answer of an official
 * operation is checked against the spec by `TestService.call`; refused calls are checked to append no event.
 */

type Account = { userId: string; token: string; organizationId: string };
type Caller = { userId: string; token: string };

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF test bytes')]);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script><rect/></svg>',
);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00;', 'latin1');
const SECRET = 'sk_live_never-stored-in-clear-6d1f0c';

const b64 = (bytes: Buffer) => bytes.toString('base64');

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('extensibility: integrations', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let reader: Caller;
  let creator: Caller;
  let stranger: Caller;

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);

  const body = (changes: Record<string, unknown> = {}, organization = ada.organizationId) => ({
    title: 'Acme Analytics',
    description: 'Counts the views of your pages',
    scopes: ['space:views:read'],
    script: 'export default {}',
    organization,
    ...changes,
  });

  async function publish(name: string, changes: Record<string, unknown> = {}, account: Account = ada) {
    const response = await as(account.token).post(`/v1/integrations/${name}`, body(changes, account.organizationId));
    expect(response.status).toBe(200);
    return response.body;
  }

  beforeAll(async () => {
    service = await TestService.start({ SECRETS_KEY: 'a-secrets-key-for-the-tests-0123456789abcdef' });
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
    reader = await service.signUp('rita@example.com', { name: 'Rita' });
    creator = await service.signUp('carl@example.com', { name: 'Carl' });
    stranger = await service.signUp('sam@example.com', { name: 'Sam' });
    for (const [email, role] of [
      ['rita@example.com', 'read'],
      ['carl@example.com', 'create'],
    ]) {
      const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, { emails: [email], role });
      expect(invited.status).toBe(200);
    }
    const named = await as(ada.token).patch(`/v1/orgs/${ada.organizationId}`, { hostname: 'engines' });
    expect(named.status).toBe(200);
  });

  afterAll(async () => {
    await service?.stop();
  });

  describe('publishing', () => {
    it('publishes with every seed field, in the spec shape, and a new version each time', async () => {
      const first = await as(ada.token).post(
        '/v1/integrations/acme-analytics',
        body({
          icon: b64(PNG),
          summary: '# Acme\nCounts views.',
          previewImages: [b64(JPEG), b64(SVG)],
          visibility: 'public',
          target: 'space',
          categories: ['analytics'],
          blocks: [
            {
              id: 'chart',
              title: 'Chart',
              urlUnfurl: ['https://charts.acme.example/c/1'],
              markdown: { codeblock: 'chart', body: 'a' },
            },
          ],
          contentSources: [{ id: 'views', title: 'Views', configuration: { componentId: 'pick' } }],
          externalLinks: [{ url: 'https://acme.example', label: 'Website' }],
          configurations: {
            account: { properties: { apiKey: { type: 'string', title: 'API key' } }, required: ['apiKey'] },
          },
          secrets: { API_TOKEN: SECRET },
          contentSecurityPolicy: { 'script-src': "'self'" },
        }),
      );
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBeTruthy();
      const api = 'http://quire.test/v1/integrations/acme-analytics';
      expect(first.body).toMatchObject({
        object: 'integration',
        name: 'acme-analytics',
        version: 1,
        title: 'Acme Analytics',
        description: 'Counts the views of your pages',
        summary: '# Acme\nCounts views.',
        visibility: 'public',
        target: 'space',
        verified: false,
        scopes: ['space:views:read'],
        categories: ['analytics'],
        externalLinks: [{ url: 'https://acme.example', label: 'Website' }],
        contentSecurityPolicy: { 'script-src': "'self'" },
        owner: { object: 'organization', id: ada.organizationId },
        permissions: { admin: true },
        urls: { location: api, icon: expect.stringMatching(`^${api}/assets/[0-9a-f]{64}$`) },
      });
      expect(first.body.previewImages).toHaveLength(2);
      expect(JSON.stringify(first.body)).not.toContain(SECRET);
      expect(first.body).not.toHaveProperty('secrets');
      expect(first.body).not.toHaveProperty('script');

      const second = await publish('acme-analytics', {
        visibility: 'public',
        blocks: [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.acme.example/c/1'] }],
      });
      expect(second.version).toBe(2);
      expect(second.summary).toBeUndefined();
    });

    it('serves images back with the type their bytes show, an SVG sandboxed', async () => {
      const published = await publish('pictures', { icon: b64(PNG), previewImages: [b64(JPEG), b64(SVG)] });
      const fetchBytes = async (url: string) => {
        const response = await fetch(url.replace('http://quire.test', service.url));
        return { response, bytes: Buffer.from(await response.arrayBuffer()) };
      };
      const icon = await fetchBytes(published.urls.icon);
      expect(icon.response.status).toBe(200);
      expect(icon.response.headers.get('content-type')).toBe('image/png');
      expect(icon.bytes.equals(PNG)).toBe(true);
      const jpeg = await fetchBytes(published.previewImages[0]);
      expect(jpeg.response.headers.get('content-type')).toBe('image/jpeg');
      const svg = await fetchBytes(published.previewImages[1]);
      expect(svg.response.headers.get('content-type')).toBe('image/svg+xml');
      expect(svg.response.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      expect(svg.response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(svg.bytes.equals(SVG)).toBe(true);
      // a key that is no image of this integration
      const other = await fetch(`${service.url}/v1/integrations/pictures/assets/${'0'.repeat(64)}`);
      expect(other.status).toBe(404);
    });

    it('takes the organization by hostname', async () => {
      const published = await publish('by-hostname', {}, { ...ada, organizationId: 'engines' });
      expect(published.owner.id).toBe(ada.organizationId);
    });

    it('refuses a name another organization owns (409), whatever the visibility', async () => {
      await publish('taken-name', { visibility: 'private' });
      await refused(
        () => as(bob.token).post('/v1/integrations/taken-name', body({}, bob.organizationId)),
        409,
        /another organization/,
      );
    });

    it.each([
      ['a name with a space', 'bad%20name', {}, /integrationName/],
      ['a name with a slash encoded', 'bad%2Fname', {}, /integrationName/],
      ['a name of 101 characters', 'x'.repeat(101), {}, /integrationName/],
      ['a title of 1 character', 'fine', { title: 'A' }, /^Invalid request: title|^title/],
      ['a title of 31 characters', 'fine', { title: 'x'.repeat(31) }, /title/],
      ['a description of 101 characters', 'fine', { description: 'x'.repeat(101) }, /description/],
      ['a summary of 2049 characters', 'fine', { summary: 'x'.repeat(2049) }, /summary/],
      ['4 preview images', 'fine', { previewImages: [b64(PNG), b64(PNG), b64(PNG), b64(PNG)] }, /previewImages/],
      [
        '6 external links',
        'fine',
        { externalLinks: Array(6).fill({ url: 'https://a.example', label: 'A' }) },
        /externalLinks/,
      ],
      ['an unknown scope', 'fine', { scopes: ['everything'] }, /scopes\[0\]/],
      ['an unknown category', 'fine', { categories: ['games'] }, /categories\[0\]/],
      ['an unknown visibility', 'fine', { visibility: 'hidden' }, /visibility/],
      ['an unknown field', 'fine', { colour: 'red' }, /colour: unknown field/],
      [
        'an unknown field in a block',
        'fine',
        { blocks: [{ id: 'a', title: 'Block', x: 1 }] },
        /blocks\[0\]\.x: unknown field/,
      ],
      ['a GIF icon', 'fine', { icon: b64(GIF) }, /icon: must be a PNG, JPEG or SVG/],
      ['text that is no SVG', 'fine', { icon: b64(Buffer.from('<html><svg></svg></html>')) }, /icon: must be a PNG/],
      ['an icon that is not base64', 'fine', { icon: 'not base64!' }, /icon: must be a base64/],
      [
        'a preview image over 1 MB',
        'fine',
        { previewImages: [b64(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]))] },
        /previewImages\[0\]: must be at most/,
      ],
      [
        '21 secrets',
        'fine',
        { secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`S${i}`, 'v'])) },
        /secrets/,
      ],
      ['a secret that is not a string', 'fine', { secrets: { A: 1 } }, /secrets\.A: must be a string/],
      ['no script', 'fine', { script: undefined }, /script/],
      ['no scopes', 'fine', { scopes: undefined }, /scopes/],
    ])('refuses %s with 400 naming the field', async (_case, name, changes, message) => {
      await refused(() => as(ada.token).post(`/v1/integrations/${name}`, body(changes)), 400, message);
    });

    it('answers 404 for an organization the caller does not belong to, 403 below admin', async () => {
      await refused(() => as(stranger.token).post('/v1/integrations/mine', body()), 404);
      await refused(() => as(ada.token).post('/v1/integrations/mine', body({}, bob.organizationId)), 404);
      await refused(() => as(ada.token).post('/v1/integrations/mine', body({}, 'no-such-org')), 404);
      await refused(() => as(reader.token).post('/v1/integrations/mine', body()), 403);
      await refused(() => as(creator.token).post('/v1/integrations/mine', body()), 403);
    });

    it('keeps secrets sealed: never in an answer, never in clear on disk', async () => {
      await publish('secretive', { secrets: { API_TOKEN: SECRET }, visibility: 'public' });
      const answers = [
        await as(ada.token).get('/v1/integrations/secretive'),
        await as(ada.token).get('/v1/integrations?limit=1000'),
        await as(bob.token).get('/v1/integrations/secretive'),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain(SECRET);
      }
      const encodings = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex')];
      const files = filesUnder(service.config.dataDir);
      expect(files.length).toBeGreaterThan(2);
      for (const file of files) {
        const bytes = readFileSync(file);
        for (const encoding of encodings)
          expect({ file, found: bytes.includes(encoding) }).toEqual({ file, found: false });
      }
    });

    it('keeps the script by its hash and never runs it', async () => {
      const script = 'globalThis.__integrationRan = true; export default {}';
      await publish('scripted', { script });
      expect((globalThis as Record<string, unknown>).__integrationRan).toBeUndefined();
      const { createHash } = await import('node:crypto');
      const key = createHash('sha256').update(script).digest('hex');
      const events = await service.events.readAll();
      const published = events.filter((event) => event.type === 'IntegrationPublished').at(-1)!;
      expect((published.data as { publication: { scriptHash: string } }).publication.scriptHash).toBe(key);
      expect(JSON.stringify(published.data)).not.toContain('__integrationRan');
    });
  });

  describe('reading and listing', () => {
    beforeAll(async () => {
      await publish('list-public', {
        visibility: 'public',
        categories: ['content'],
        blocks: [{ id: 'b', title: 'Block', urlUnfurl: ['https://docs.example.org/x'] }],
      });
      await publish('list-private', {
        visibility: 'private',
        contentSources: [{ id: 's', title: 'Source', configuration: { componentId: 'c' } }],
      });
      await publish('list-unlisted', { visibility: 'unlisted' });
      await publish('bobs-public', { visibility: 'public', scopes: ['site:views:read'], target: 'site' }, bob);
    });

    const names = (response: Response) => (response.body.items as { name: string }[]).map((one) => one.name);

    it("lists public ones for everyone, private and unlisted ones for the owner's members", async () => {
      const forStranger = await as(stranger.token).get('/v1/integrations?limit=1000');
      expect(forStranger.status).toBe(200);
      expect(names(forStranger)).toEqual(expect.arrayContaining(['list-public', 'bobs-public']));
      expect(names(forStranger)).not.toContain('list-private');
      expect(names(forStranger)).not.toContain('list-unlisted');
      const forReader = await as(reader.token).get('/v1/integrations?limit=1000');
      expect(names(forReader)).toEqual(expect.arrayContaining(['list-public', 'list-private', 'list-unlisted']));
      expect(forReader.body.count).toBe(forReader.body.items.length);
    });

    it('filters by search, category, blockDomain (host or parent domain), blocks, contentSources, owner, scope, target', async () => {
      const list = async (query: string) => names(await as(ada.token).get(`/v1/integrations?limit=1000&${query}`));
      expect(await list('search=LIST-p')).toEqual(['list-private', 'list-public']);
      expect(await list('category=content')).toEqual(['list-public']);
      expect(await list('blockDomain=docs.example.org')).toEqual(['list-public']);
      expect(await list('blockDomain=example.org')).toEqual(['list-public']);
      expect(await list('blockDomain=other.example.org')).toEqual([]);
      expect(await list('blockDomain=ample.org')).toEqual([]);
      expect(await list('blocks=true')).toEqual(expect.arrayContaining(['acme-analytics', 'list-public']));
      expect(await list('blocks=false')).not.toContain('list-public');
      expect(await list('contentSources=true')).toEqual(['list-private']);
      expect(await list(`owner=${bob.organizationId}`)).toEqual(['bobs-public']);
      expect(await list('owner=engines')).toContain('list-private');
      expect(await list('scope=site:views:read')).toEqual(['bobs-public']);
      expect(await list('target=site')).toEqual(['bobs-public']);
    });

    it('pages through the list', async () => {
      const first = await as(ada.token).get('/v1/integrations?limit=2');
      expect(first.body.items).toHaveLength(2);
      const second = await as(ada.token).get(`/v1/integrations?limit=2&page=${first.body.next.page}`);
      expect(second.status).toBe(200);
      expect(names(second)).not.toContain(names(first)[0]);
    });

    it.each([
      ['blockDomain=has space', /blockDomain/],
      [`blockDomain=${'x'.repeat(101)}`, /blockDomain/],
      ['category=games', /category/],
      ['blocks=yes', /blocks/],
      ['limit=1001', /limit/],
      ['colour=red', /colour/],
    ])('refuses a bad filter %s', async (query, message) => {
      await refused(() => as(ada.token).get(`/v1/integrations?${query}`), 400, message);
    });

    it('reads public and unlisted ones with any token, private ones only as a member (404 otherwise)', async () => {
      expect((await as(stranger.token).get('/v1/integrations/list-public')).status).toBe(200);
      const unlisted = await as(bob.token).get('/v1/integrations/list-unlisted');
      expect(unlisted.status).toBe(200);
      expect(unlisted.body.permissions).toEqual({ admin: false, install: true });
      expect((await as(reader.token).get('/v1/integrations/list-public')).body.permissions).toEqual({
        admin: false,
        install: false,
      });
      expect(unlisted.body.owner.emailDomains).toEqual([]);
      await refused(() => as(bob.token).get('/v1/integrations/list-private'), 404);
      await refused(() => as(stranger.token).get('/v1/integrations/list-private'), 404);
      const member = await as(reader.token).get('/v1/integrations/list-private');
      expect(member.status).toBe(200);
      expect(member.body.permissions).toEqual({ admin: false, install: false });
      expect((await as(ada.token).get('/v1/integrations/list-private')).body.permissions).toEqual({
        admin: true,
        install: true,
      });
      await refused(() => as(ada.token).get('/v1/integrations/never-published'), 404);
    });
  });

  describe('installations', () => {
    beforeAll(async () => {
      await publish('installable', {
        visibility: 'public',
        configurations: {
          account: {
            properties: {
              apiKey: { type: 'string' },
              rate: { type: 'number' },
              region: { type: 'string', enum: ['eu', 'us'] },
            },
            required: ['apiKey'],
          },
        },
      });
    });

    it('installs, reads, changes and uninstalls, for admins of the installing organization', async () => {
      const installed = await as(bob.token).post('/v1/integrations/installable/installations', {
        organization: bob.organizationId,
      });
      expect(installed.status).toBe(201);
      expect(installed.headers.get('location')).toBe(installed.body.urls.location);
      expect(installed.body).toMatchObject({
        object: 'integration-installation',
        status: 'active',
        space_selection: 'all',
        site_selection: 'all',
        spaces: 0,
        configuration: {},
        externalIds: [],
        target: { organization: bob.organizationId },
      });
      const path = `/v1/integrations/installable/installations/${installed.body.id}`;
      await refused(
        () => as(bob.token).post('/v1/integrations/installable/installations', { organization: bob.organizationId }),
        409,
      );

      const space = await as(bob.token).post(`/v1/orgs/${bob.organizationId}/spaces`, { title: 'Docs' });
      expect(space.status).toBe(201);
      expect((await as(bob.token).get(path)).body.spaces).toBe(1);

      const changed = await as(bob.token).patch(path, {
        configuration: { apiKey: 'k-1', rate: 2, region: 'eu' },
        externalIds: ['bob-ext'],
        space_selection: 'selected',
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        configuration: { apiKey: 'k-1', rate: 2, region: 'eu' },
        externalIds: ['bob-ext'],
        space_selection: 'selected',
        spaces: 0,
      });
      await refused(
        () => as(bob.token).patch(path, { configuration: { apiKey: 'k', colour: 'red' } }),
        400,
        /configuration\.colour/,
      );
      await refused(
        () => as(bob.token).patch(path, { configuration: { rate: 1 } }),
        400,
        /configuration\.apiKey: is required/,
      );
      await refused(
        () => as(bob.token).patch(path, { configuration: { apiKey: 'k', rate: 'fast' } }),
        400,
        /configuration\.rate/,
      );
      await refused(() => as(bob.token).patch(path, { space_selection: 'some' }), 400, /space_selection/);
      await refused(() => as(bob.token).patch(path, { status: 'paused' }), 400, /status: unknown field/);

      // the owner's admins see every installation; an installing organization's admins only theirs
      const forOwner = await as(ada.token).get('/v1/integrations/installable/installations');
      expect(forOwner.status).toBe(200);
      expect(forOwner.body.items.map((one: { id: string }) => one.id)).toEqual([installed.body.id]);
      const byExternalId = await as(ada.token).get('/v1/integrations/installable/installations?externalId=bob-ext');
      expect(byExternalId.body.count).toBe(1);
      const noMatch = await as(ada.token).get('/v1/integrations/installable/installations?externalId=other');
      expect(noMatch.body.count).toBe(0);
      const own = await as(ada.token).post('/v1/integrations/installable/installations', {
        organization: ada.organizationId,
      });
      expect(own.status).toBe(201);
      const forBob = await as(bob.token).get('/v1/integrations/installable/installations');
      expect(forBob.body.items.map((one: { id: string }) => one.id)).toEqual([installed.body.id]);
      const forReader = await as(reader.token).get('/v1/integrations/installable/installations');
      expect(forReader.body.items).toEqual([]);

      // others cannot read or touch Bob's installation
      await refused(() => as(ada.token).get(path), 404);
      await refused(() => as(ada.token).patch(path, { externalIds: [] }), 404);
      await refused(() => as(ada.token).delete(path), 404);

      const removed = await as(bob.token).delete(path);
      expect(removed.status).toBe(204);
      await refused(() => as(bob.token).get(path), 404);
    });

    it('refuses installing for an organization the caller does not administer, or a private integration of another', async () => {
      await refused(
        () =>
          as(stranger.token).post('/v1/integrations/installable/installations', { organization: ada.organizationId }),
        404,
      );
      await refused(
        () => as(reader.token).post('/v1/integrations/installable/installations', { organization: ada.organizationId }),
        403,
      );
      await publish('private-tool', { visibility: 'private' });
      await refused(
        () => as(bob.token).post('/v1/integrations/private-tool/installations', { organization: bob.organizationId }),
        404,
      );
      await refused(() => as(bob.token).get('/v1/integrations/private-tool/installations'), 404);
    });
  });

  it('honours If-Match on publishing and unpublishing with the revision of the whole stream', async () => {
    await publish('guarded', { visibility: 'public' });
    const before = await as(ada.token).get('/v1/integrations/guarded');
    const etag = before.headers.get('etag')!;
    const installed = await as(bob.token).post('/v1/integrations/guarded/installations', {
      organization: bob.organizationId,
    });
    expect(installed.status).toBe(201);
    const after = await as(ada.token).get('/v1/integrations/guarded');
    expect(after.headers.get('etag')).not.toBe(etag);
    const publishWith = (ifMatch: string) =>
      service.call('POST', '/v1/integrations/guarded', {
        token: ada.token,
        body: body(),
        headers: { 'if-match': ifMatch },
      });
    await refused(() => publishWith(etag), 412);
    const republished = await publishWith(after.headers.get('etag')!);
    expect(republished.status).toBe(200);
    expect(republished.body.version).toBe(2);
    await refused(
      () => service.call('DELETE', '/v1/integrations/guarded', { token: ada.token, headers: { 'if-match': etag } }),
      412,
    );
  });

  describe('unpublishing', () => {
    it("is for the owner's admins; it ends the installations and frees nothing for others", async () => {
      await publish('short-lived', { visibility: 'public' });
      const installed = await as(bob.token).post('/v1/integrations/short-lived/installations', {
        organization: bob.organizationId,
      });
      expect(installed.status).toBe(201);
      await refused(() => as(bob.token).delete('/v1/integrations/short-lived'), 403);
      await refused(() => as(reader.token).delete('/v1/integrations/short-lived'), 403);
      await refused(() => as(stranger.token).delete('/v1/integrations/list-private'), 404);

      const removed = await as(ada.token).delete('/v1/integrations/short-lived');
      expect(removed.status).toBe(204);
      await refused(() => as(ada.token).get('/v1/integrations/short-lived'), 404);
      await refused(() => as(bob.token).get(`/v1/integrations/short-lived/installations/${installed.body.id}`), 404);
      expect((await as(ada.token).delete('/v1/integrations/short-lived')).status).toBe(204);
      await refused(() => as(bob.token).post('/v1/integrations/short-lived', body({}, bob.organizationId)), 409);
      const again = await publish('short-lived', { visibility: 'public' });
      expect(again.version).toBe(2);
    });
  });

  it('rebuilds its read models from the events and answers the same', async () => {
    await publish('rebuilt', { visibility: 'public', icon: b64(PNG) });
    const installed = await as(bob.token).post('/v1/integrations/rebuilt/installations', {
      organization: bob.organizationId,
    });
    expect(installed.status).toBe(201);
    const read = async () => ({
      list: (await as(ada.token).get('/v1/integrations?limit=1000')).body,
      one: (await as(ada.token).get('/v1/integrations/rebuilt')).body,
      installations: (await as(ada.token).get('/v1/integrations/rebuilt/installations')).body,
    });
    const before = await read();
    expect(before.installations.count).toBe(1);
    await service.reads.dropCollection('integrations');
    await service.reads.dropCollection('integration_installations');
    expect((await as(ada.token).get('/v1/integrations')).body.count).toBe(0);
    await service.runtime.projections.rebuild('integrations');
    await service.runtime.projections.rebuild('integration_installations');
    expect(await read()).toEqual(before);
  });

  it('works through the official client @gitbook/api 0.202.0', async () => {
    const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
    const published = await api.integrations.publishIntegration('client-made', {
      title: 'Client made',
      description: 'Published by the official client',
      scopes: [IntegrationScope.SpaceContentRead],
      script: 'export default {}',
      organization: ada.organizationId,
      visibility: IntegrationVisibility.Public,
      icon: b64(PNG),
      secrets: { TOKEN: SECRET },
    });
    expect(published.data.name).toBe('client-made');
    expect(JSON.stringify(published.data)).not.toContain(SECRET);
    const read = await api.integrations.getIntegrationByName('client-made');
    expect(read.data.version).toBe(1);
    const listed = await api.integrations.listIntegrations({ search: 'client-made' });
    expect(listed.data.items.map((one) => one.name)).toEqual(['client-made']);
    const installation = await api.integrations.installIntegration('client-made', {
      organization: ada.organizationId,
    });
    expect(installation.status).toBe(201);
    const installations = await api.integrations.listIntegrationInstallations('client-made');
    expect(installations.data.items).toHaveLength(1);
    const updated = await api.integrations.updateIntegrationInstallation('client-made', installation.data.id, {
      externalIds: ['from-client'],
    });
    expect(updated.data.externalIds).toEqual(['from-client']);
    await api.integrations.uninstallIntegration('client-made', installation.data.id);
    await api.integrations.unpublishIntegration('client-made');
    await expect(api.integrations.getIntegrationByName('client-made')).rejects.toMatchObject({ code: 404 });
  });

  it('validated the answers against the official spec', () => {
    for (const operation of [
      'publishIntegration',
      'getIntegrationByName',
      'listIntegrations',
      'listIntegrationInstallations',
      'installIntegration',
      'getIntegrationInstallationById',
      'updateIntegrationInstallation',
    ]) {
      expect(service.validated).toContain(operation);
    }
  });

  describe('the secrets key', () => {
    it('without SECRETS_KEY, is generated once into DATA_DIR with mode 0600 and kept across restarts', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'quire-secrets-'));
      try {
        const first = await TestService.start({}, dir);
        const file = join(dir, 'secrets-key');
        const key = readFileSync(file, 'utf8');
        expect(key.length).toBeGreaterThanOrEqual(32);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(first.config.secretsKey).toBe(key);
        await first.stop(false);
        const second = await TestService.start({}, dir);
        expect(second.config.secretsKey).toBe(key);
        await second.stop(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a SECRETS_KEY shorter than 32 characters at start', () => {
      expect(() => loadConfig({ DATA_DIR: service.config.dataDir, SECRETS_KEY: 'too-short' })).toThrow(/SECRETS_KEY/);
    });
  });
});
