import { GitBookAPI } from '@gitbook/api';
import { type Response, TestService } from '../support/service';

/**
 * Docs sites, their structure (site spaces, sections, section groups), publishing and share links, over real HTTP
 * on the embedded backends. Every 2xx answer of an official operation is checked against the official schema by
 * `TestService.call`; refused calls are checked to append no event.
 */

type Account = { userId: string; token: string; organizationId: string };

describe('publishing: docs sites', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let reader: { token: string; userId: string };
  let stranger: { token: string; userId: string };

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
    reader = await service.signUp('rita@example.com', { name: 'Rita' });
    stranger = await service.signUp('sam@example.com', { name: 'Sam' });
    const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, {
      emails: ['rita@example.com'],
      role: 'read',
    });
    expect(invited.status).toBe(200);
  });

  afterAll(async () => {
    await service?.stop();
  });

  const sites = (org = ada.organizationId) => `/v1/orgs/${org}/sites`;

  async function newSpace(title: string, account: Account = ada): Promise<string> {
    const created = await as(account.token).post(`/v1/orgs/${account.organizationId}/spaces`, { title });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function newSite(body: Record<string, unknown> = {}, account: Account = ada) {
    service.clock.advance(1000);
    const created = await as(account.token).post(sites(account.organizationId), { title: 'Docs', ...body });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the condition was not reached within 5 seconds');
  }

  describe('sites', () => {
    it('creates a site from spaces, with the full Site shape, a Location and its features', async () => {
      const guide = await newSpace('User Guide');
      const api = await newSpace('API Reference');
      const response = await as(ada.token).post(sites(), { title: 'Product docs', spaces: [guide, api] });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(response.body.urls.location);
      expect(response.body).toMatchObject({
        object: 'site',
        type: 'basic',
        title: 'Product docs',
        visibility: 'public',
        published: false,
        siteSpaces: 2,
      });
      expect(response.body.features.map((one: { id: string }) => one.id)).toContain('sites-basic-customization');
      expect(response.body.features.map((one: { id: string }) => one.id)).not.toContain('sites-sections');
      expect(response.body.urls.published).toBeUndefined();

      const spaces = await as(ada.token).get(`${sites()}/${response.body.id}/site-spaces`);
      expect(spaces.body.items.map((one: { space: { id: string } }) => one.space.id)).toEqual([guide, api]);
      expect(spaces.body.items.map((one: { path: string }) => one.path)).toEqual(['user-guide', 'api-reference']);
      expect(spaces.body.items.map((one: { default: boolean }) => one.default)).toEqual([true, false]);
    });

    it('creates a new space for the site with "empty" or "sample", and marks frozen features of legacy types', async () => {
      const empty = await newSite({ title: 'Fresh', spaces: 'empty' });
      expect(empty.siteSpaces).toBe(1);
      const sample = await newSite({ title: 'Sampler', spaces: 'sample', type: 'legacy-premium' });
      const spaceId = (await as(ada.token).get(`${sites()}/${sample.id}/site-spaces`)).body.items[0].space.id;
      const pages = await as(ada.token).get(`/v1/spaces/${spaceId}/content/pages`);
      expect(pages.body.pages.map((page: { title: string }) => page.title)).toEqual(['Welcome', 'Getting started']);
      expect(sample.features.every((one: { frozen: boolean }) => one.frozen)).toBe(true);
      expect(sample.features.map((one: { id: string }) => one.id)).toContain('sites-share-links');
    });

    it('refuses bad input with the field named, and appends nothing', async () => {
      await refused(() => as(ada.token).post(sites(), { title: 'D' }), 400, /title/);
      await refused(() => as(ada.token).post(sites(), { title: 'x'.repeat(129) }), 400, /title/);
      await refused(() => as(ada.token).post(sites(), { type: 'gold' }), 400, /type/);
      await refused(() => as(ada.token).post(sites(), { spaces: 'all' }), 400, /spaces/);
      const mine = await newSpace('Mine');
      await refused(() => as(ada.token).post(sites(), { spaces: [mine, 'nope'] }), 400, /nope/);
      const theirs = await newSpace('Theirs', bob);
      await refused(() => as(ada.token).post(sites(), { spaces: [theirs] }), 400, /no space/);
      await refused(() => as(ada.token).post(sites(), { title: 'Docs', colour: 'red' }), 400, /colour/);
      const site = await newSite();
      const path = `${sites()}/${site.id}`;
      for (const proxy of ['example.com', 'https://example.com/docs', 'example/docs', 'exa mple.com/docs']) {
        await refused(() => as(ada.token).patch(path, { proxy }), 400, /proxy/);
      }
      await refused(() => as(ada.token).patch(path, { basename: '' }), 400, /basename/);
      await refused(() => as(ada.token).patch(path, { basename: 'a/b' }), 400, /basename/);
      await refused(() => as(ada.token).patch(path, { title: 'x'.repeat(129) }), 400, /title/);
      await refused(() => as(ada.token).patch(path, { published: true }), 400, /published/);
    });

    it('changes settings, sets and removes a proxy, and honours If-Match', async () => {
      const site = await newSite({ spaces: [await newSpace('Guide')] });
      const path = `${sites()}/${site.id}`;
      const changed = await as(ada.token).patch(path, {
        title: 'Renamed',
        visibility: 'unlisted',
        basename: 'guide',
        adaptiveContent: { enabled: true },
        proxy: 'example.com/docs',
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        title: 'Renamed',
        visibility: 'unlisted',
        basename: 'guide',
        adaptiveContent: { enabled: true },
        proxy: { origin: 'example.com/docs' },
      });
      const stale = changed.headers.get('etag')!;
      expect((await as(ada.token).patch(path, { proxy: null })).body.proxy).toBeUndefined();
      await refused(
        () =>
          service.call('PATCH', path, { token: ada.token, body: { title: 'Late' }, headers: { 'if-match': stale } }),
        412,
      );
    });

    it('publishes only a site with a site space; published and unpublished move only through those operations', async () => {
      const bare = await newSite();
      await refused(() => as(ada.token).post(`${sites()}/${bare.id}/publish`), 409, /site space/);
      const site = await newSite({ spaces: [await newSpace('Guide')] });
      const published = await as(ada.token).post(`${sites()}/${site.id}/publish`);
      expect(published.status).toBe(200);
      expect(published.body.published).toBe(true);
      expect(published.body.urls.published).toBe(`${service.config.sitesUrl}/${ada.organizationId}/${site.id}`);
      const renamed = await as(ada.token).patch(`${sites()}/${site.id}`, { basename: 'handbook' });
      expect(renamed.body.urls.published).toBe(`${service.config.sitesUrl}/${ada.organizationId}/handbook`);
      const unpublished = await as(ada.token).post(`${sites()}/${site.id}/unpublish`);
      expect(unpublished.body.published).toBe(false);
    });

    it('lists with the space, title, published and type filters, and pages through', async () => {
      const spaceId = await newSpace('Filtered');
      const a = await newSite({ title: 'Filter Alpha', spaces: [spaceId], type: 'premium' });
      const b = await newSite({ title: 'filter beta', type: 'ultimate' });
      await as(ada.token).post(`${sites()}/${a.id}/publish`);
      const ids = async (query: string) =>
        (await as(ada.token).get(`${sites()}?${query}`)).body.items.map((one: { id: string }) => one.id);
      expect(await ids(`space=${spaceId}`)).toEqual([a.id]);
      expect(await ids('title=FILTER')).toEqual([a.id, b.id]);
      expect(await ids('title=filter&published=true')).toEqual([a.id]);
      expect(await ids('title=filter&published=false')).toEqual([b.id]);
      expect(await ids('title=filter&type=ultimate')).toEqual([b.id]);
      expect(await ids('title=filter&type=basic,premium')).toEqual([a.id]);
      expect(await ids('title=filter&type=premium&type=ultimate')).toEqual([a.id, b.id]);
      await refused(() => as(ada.token).get(`${sites()}?type=gold`), 400, /type/);
      const first = await as(ada.token).get(`${sites()}?title=filter&limit=1`);
      expect(first.body.count).toBe(2);
      const second = await as(ada.token).get(`${sites()}?title=filter&limit=1&page=${first.body.next.page}`);
      expect(second.body.items[0].id).toBe(b.id);
      expect(second.body.next).toBeUndefined();
    });

    it('deletes a site with its structure, never its spaces; deleting again is 204', async () => {
      const spaceId = await newSpace('Stays');
      const site = await newSite({ spaces: [spaceId] });
      expect((await as(ada.token).delete(`${sites()}/${site.id}`)).status).toBe(204);
      expect((await as(ada.token).get(`${sites()}/${site.id}`)).status).toBe(404);
      expect((await as(ada.token).get(`${sites()}/${site.id}/site-spaces`)).status).toBe(404);
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}`)).status).toBe(200);
      expect((await as(ada.token).delete(`${sites()}/${site.id}`)).status).toBe(204);
      await refused(() => as(ada.token).delete(`${sites()}/no-such-site`), 404);
    });

    it('takes a deleted or transferred space off every site that showed it', async () => {
      const gone = await newSpace('Going');
      const moved = await newSpace('Moving');
      const kept = await newSpace('Kept');
      const one = await newSite({ spaces: [gone, moved, kept] });
      const two = await newSite({ spaces: [gone] });
      expect((await as(ada.token).delete(`/v1/spaces/${gone}`)).status).toBe(204);
      const spacesOf = async (siteId: string) =>
        (await as(ada.token).get(`${sites()}/${siteId}/site-spaces`)).body.items.map(
          (item: { space: { id: string } }) => item.space.id,
        );
      // answers never show a deleted space, even before the clean-up has run
      expect(await spacesOf(one.id)).toEqual([moved, kept]);
      expect((await as(ada.token).get(`${sites()}/${one.id}`)).body.siteSpaces).toBe(2);
      await waitFor(
        async () => (await service.reads.get<{ id: string; spaceIds: string[] }>('sites', two.id))!.spaceIds,
        (ids) => ids.length === 0,
      );
      await waitFor(
        async () => (await service.reads.get<{ id: string; spaceIds: string[] }>('sites', one.id))!.spaceIds,
        (ids) => !ids.includes(gone),
      );
      const elsewhere = await as(ada.token).post('/v1/orgs', { title: 'Second shop' });
      expect(elsewhere.status).toBe(201);
      const transferred = await as(ada.token).post(`/v1/spaces/${moved}/transfer`, {
        organization: elsewhere.body.id,
      });
      expect(transferred.status).toBe(200);
      expect(await spacesOf(one.id)).toEqual([kept]);
      expect((await as(ada.token).get(`${sites()}/${one.id}`)).body.siteSpaces).toBe(1);
      await waitFor(
        async () => (await service.reads.get<{ id: string; spaceIds: string[] }>('sites', one.id))!.spaceIds,
        (ids) => ids.length === 1,
      );
      const restored = await as(ada.token).post(`/v1/spaces/${gone}/restore`);
      expect(restored.status).toBe(200);
      expect(await spacesOf(one.id)).toEqual([kept]);
      expect((await as(ada.token).get(`${sites()}/${one.id}`)).body.siteSpaces).toBe(1);
    });
  });

  describe('structure', () => {
    it('adds site spaces at the root, refuses the same space twice, and keeps paths unique', async () => {
      const a = await newSpace('Alpha');
      const site = await newSite({ spaces: [a] });
      const base = `${sites()}/${site.id}/site-spaces`;
      await refused(() => as(ada.token).post(base, { spaceId: a }), 409, /already/);
      const b = await newSpace('Alpha');
      const added = await as(ada.token).post(base, { spaceId: b });
      expect(added.status).toBe(201);
      expect(added.headers.get('location')).toBe(`http://quire.test/v1${base.slice(3)}/${added.body.id}`);
      expect(added.body).toMatchObject({ object: 'site-space', path: 'alpha-2', default: false, title: 'Alpha' });
      const first = (await as(ada.token).get(`${base}?default=true`)).body.items;
      expect(first).toHaveLength(1);
      await refused(() => as(ada.token).patch(`${base}/${added.body.id}`, { path: 'alpha' }), 409, /path/);
      await refused(() => as(ada.token).patch(`${base}/${added.body.id}`, { path: 'x'.repeat(101) }), 400, /path/);
      await refused(() => as(ada.token).patch(`${base}/${added.body.id}`, { path: 'no spaces' }), 400, /path/);
      expect((await as(ada.token).patch(`${base}/${added.body.id}`, { path: 'beta' })).body.path).toBe('beta');
      await refused(() => as(ada.token).post(base, { spaceId: b, sectionId: 'nope' }), 400, /sectionId/);
    });

    it('checks conditions with a parser and removes them with null', async () => {
      const site = await newSite({ spaces: [await newSpace('Cond')] });
      const item = (await as(ada.token).get(`${sites()}/${site.id}/site-spaces`)).body.items[0];
      const path = `${sites()}/${site.id}/site-spaces/${item.id}`;
      const condition = 'visitor.claims.plan == "pro" && !visitor.claims.trial || (visitor.claims.seats >= 10)';
      expect((await as(ada.token).patch(path, { condition })).body.condition).toBe(condition);
      for (const bad of [
        'visitor.claims.plan ==',
        'process.exit(1)',
        'visitor.claims.plan = "pro"',
        'constructor.constructor("x")()',
        'window.location',
        'visitor.claims.a ? 1 : 2',
        'x'.repeat(1025),
      ]) {
        await refused(() => as(ada.token).patch(path, { condition: bad }), 400, /condition/);
      }
      expect((await as(ada.token).patch(path, { title: undefined })).body.condition).toBe(condition);
      expect((await as(ada.token).patch(path, { condition: null })).body.condition).toBeUndefined();
    });

    it('moves site spaces before and after others; a pointer outside the site is 400', async () => {
      const ids = [await newSpace('S1'), await newSpace('S2'), await newSpace('S3')];
      const site = await newSite({ spaces: ids });
      const other = await newSite({ spaces: [await newSpace('Elsewhere')] });
      const base = `${sites()}/${site.id}/site-spaces`;
      const items = (await as(ada.token).get(base)).body.items.map((one: { id: string }) => one.id);
      const order = async () => (await as(ada.token).get(base)).body.items.map((one: { id: string }) => one.id);
      const move = (id: string, body?: unknown) => as(ada.token).post(`${base}/${id}/move`, body);
      expect((await move(items[2], { position: { before: { type: 'site-space', siteSpace: items[0] } } })).status).toBe(
        200,
      );
      expect(await order()).toEqual([items[2], items[0], items[1]]);
      await move(items[2], { position: { after: { type: 'site-space', siteSpace: items[1] } } });
      expect(await order()).toEqual([items[0], items[1], items[2]]);
      await move(items[0]);
      expect(await order()).toEqual([items[1], items[2], items[0]]);
      const foreign = (await as(ada.token).get(`${sites()}/${other.id}/site-spaces`)).body.items[0].id;
      await refused(
        () => move(items[0], { position: { before: { type: 'site-space', siteSpace: foreign } } }),
        400,
        /position/,
      );
      await refused(() => move(items[0], { position: { before: { type: 'site-section', siteSpace: items[1] } } }), 400);
      await refused(() => move('nope', {}), 404);
    });

    it('turns root site spaces into the first section, keeps defaults, and nests sections in groups', async () => {
      const [a, b, c, d] = [
        await newSpace('Guide'),
        await newSpace('API'),
        await newSpace('SDK'),
        await newSpace('CLI'),
      ];
      const site = await newSite({ spaces: [a, b] });
      const base = `${sites()}/${site.id}`;
      const first = await as(ada.token).post(`${base}/sections`, { spaceId: c, title: 'Products' });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ object: 'site-section', title: 'Products', path: 'products', default: true });
      expect(first.body.siteSpaces.map((one: { space: { id: string } }) => one.space.id)).toEqual([a, b, c]);
      expect(first.body.siteSpaces.map((one: { default: boolean }) => one.default)).toEqual([true, false, false]);
      await refused(() => as(ada.token).post(`${base}/sections`, { spaceId: d, title: 'x'.repeat(65) }), 400, /title/);
      const second = await as(ada.token).post(`${base}/sections`, { spaceId: d });
      expect(second.body).toMatchObject({ title: 'CLI', default: false });
      // a new site space goes to the default section
      const added = await as(ada.token).post(`${base}/site-spaces`, { spaceId: d });
      expect(added.body.section).toBe(first.body.id);
      await refused(() => as(ada.token).patch(`${base}/sections/${second.body.id}`, { path: 'products' }), 409, /path/);
      await refused(() => as(ada.token).patch(`${base}/sections/${second.body.id}`, { title: 'x' }), 400, /title/);
      const patched = await as(ada.token).patch(`${base}/sections/${second.body.id}`, {
        title: 'Command line',
        description: 'Tools',
        icon: 'terminal',
        condition: 'visitor.claims.beta == true',
      });
      expect(patched.body).toMatchObject({ title: 'Command line', description: 'Tools', icon: 'terminal' });
      expect((await as(ada.token).patch(base, { defaultSiteSection: second.body.id })).status).toBe(200);
      const sections = await as(ada.token).get(`${base}/sections`);
      expect(sections.body.items.map((one: { default: boolean }) => one.default)).toEqual([false, true]);
      await refused(() => as(ada.token).patch(base, { defaultSiteSection: 'nope' }), 400, /defaultSiteSection/);

      const group = await as(ada.token).post(`${base}/section-groups`, {
        title: 'Everything',
        sections: [second.body.id],
      });
      expect(group.status).toBe(201);
      expect(group.body.sections.map((one: { id: string }) => one.id)).toEqual([second.body.id]);
      await refused(() => as(ada.token).post(`${base}/section-groups`, { title: '' }), 400, /title/);
      await refused(
        () => as(ada.token).post(`${base}/section-groups`, { title: 'G', sections: ['nope'] }),
        400,
        /sections/,
      );
      const joined = await as(ada.token).post(`${base}/section-groups/${group.body.id}/sections`, {
        sectionId: first.body.id,
      });
      expect(joined.status).toBe(201);
      expect(joined.body.sections.map((one: { id: string }) => one.id)).toEqual([second.body.id, first.body.id]);
      const published = await as(ada.token).get(`${base}/published`);
      expect(published.body.structure.type).toBe('sections');
      expect(published.body.structure.structure.map((one: { object: string }) => one.object)).toEqual([
        'site-section-group',
      ]);
      expect(
        (await as(ada.token).delete(`${base}/section-groups/${group.body.id}/sections/${first.body.id}`)).status,
      ).toBe(204);
      const after = (await as(ada.token).get(`${base}/structure`)).body.structure;
      expect(after.map((one: { id: string }) => one.id)).toEqual([group.body.id, first.body.id]);
      // a group moves only next to top-level items
      await refused(
        () =>
          as(ada.token).post(`${base}/section-groups/${group.body.id}/move`, {
            position: { before: { type: 'site-section', id: second.body.id } },
          }),
        400,
        /nest/,
      );
      const moved = await as(ada.token).post(`${base}/section-groups/${group.body.id}/move`, {
        position: { after: { type: 'site-section', id: first.body.id } },
      });
      expect(moved.status).toBe(200);
      expect(
        (await as(ada.token).get(`${base}/structure`)).body.structure.map((one: { id: string }) => one.id),
      ).toEqual([first.body.id, group.body.id]);
      // a section moved next to one in a group joins it
      const third = await as(ada.token).post(`${base}/sections`, { spaceId: a, title: 'Again' });
      await as(ada.token).post(`${base}/sections/${third.body.id}/move`, {
        position: { before: { type: 'site-section', siteSection: second.body.id } },
      });
      const groups = await as(ada.token).get(`${base}/section-groups`);
      expect(groups.body.items[0].sections.map((one: { id: string }) => one.id)).toEqual([
        third.body.id,
        second.body.id,
      ]);
      expect(
        (await as(ada.token).patch(`${base}/section-groups/${group.body.id}`, { title: 'All', icon: null })).body.title,
      ).toBe('All');
      // deleting the group puts its sections back where it was; deleting a section takes its site spaces
      expect((await as(ada.token).delete(`${base}/section-groups/${group.body.id}`)).status).toBe(204);
      expect(
        (await as(ada.token).get(`${base}/structure`)).body.structure.map((one: { id: string }) => one.id),
      ).toEqual([first.body.id, third.body.id, second.body.id]);
      expect((await as(ada.token).delete(`${base}/sections/${first.body.id}`)).status).toBe(204);
      expect((await as(ada.token).delete(`${base}/sections/${first.body.id}`)).status).toBe(204);
      const remaining = await as(ada.token).get(`${base}/site-spaces`);
      expect(remaining.body.items.map((one: { section: string }) => one.section)).toEqual([
        third.body.id,
        second.body.id,
      ]);
      expect((await as(ada.token).get(base)).body.siteSpaces).toBe(2);
    });

    it('stores a valid adaptive schema and refuses one that is not draft-07 or not of the claims shape', async () => {
      const site = await newSite();
      const path = `${sites()}/${site.id}/adaptive-schema`;
      const empty = await as(ada.token).get(path);
      expect(empty.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { type: 'object' } });
      const jsonSchema = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          isBetaUser: { type: 'boolean', description: 'In the beta programme' },
          plan: { type: 'string', enum: ['free', 'pro'], description: 'Billing plan' },
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { theme: { type: 'string', description: 'Chosen theme' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      };
      const stored = await as(ada.token).put(path, { jsonSchema });
      expect(stored.status).toBe(200);
      expect(stored.body.jsonSchema).toEqual(jsonSchema);
      await refused(
        () => as(ada.token).put(path, { jsonSchema: { type: 'object', properties: 3 } }),
        400,
        /JSON Schema/,
      );
      await refused(
        () =>
          as(ada.token).put(path, {
            jsonSchema: { type: 'object', properties: { a: { type: 'boolean' } }, additionalProperties: false },
          }),
        400,
        /claims/,
      );
      await refused(() => as(ada.token).put(path, { jsonSchema: { type: 'object', properties: {} } }), 400, /claims/);
      await refused(() => as(ada.token).put(path, {}), 400, /jsonSchema/);
    });

    it('shows default customizations, replaces them with valid settings and names the wrong field', async () => {
      const site = await newSite({ spaces: [await newSpace('Look')] });
      const path = `${sites()}/${site.id}/customization`;
      const defaults = (await as(ada.token).get(path)).body;
      expect(defaults.styling.theme).toBe('clean');
      const wanted = {
        ...defaults,
        title: 'Shiny docs',
        styling: { ...defaults.styling, primaryColor: { light: '#ff0000', dark: '#aa0000' } },
        footer: { groups: [], copyright: '© Ada' },
        announcement: { enabled: true, message: 'New release', style: 'info' },
      };
      const stored = await as(ada.token).put(path, wanted);
      expect(stored.status).toBe(200);
      expect(stored.body.title).toBe('Shiny docs');
      const published = await as(ada.token).get(`${sites()}/${site.id}/published`);
      expect(published.body.customizations.site.footer.copyright).toBe('© Ada');
      const bad = (styling: object) => ({ ...defaults, styling: { ...defaults.styling, ...styling } });
      await refused(
        () => as(ada.token).put(path, bad({ primaryColor: { light: 'red', dark: '#000' } })),
        400,
        /primaryColor/,
      );
      await refused(() => as(ada.token).put(path, bad({ theme: 'neon' })), 400, /theme/);
      await refused(
        () => as(ada.token).put(path, { ...defaults, footer: { groups: [], copyright: 'x'.repeat(301) } }),
        400,
        /copyright/,
      );
      await refused(() => as(ada.token).put(path, { ...defaults, extra: true }), 400, /extra/);
      const { styling: _dropped, ...withoutStyling } = defaults;
      await refused(() => as(ada.token).put(path, withoutStyling), 400, /styling/);
    });
  });

  describe('published view and share links', () => {
    it('gives the complete published profile with defaults', async () => {
      const site = await newSite({ spaces: [await newSpace('Pub')] });
      const published = await as(ada.token).get(`${sites()}/${site.id}/published`);
      expect(published.status).toBe(200);
      expect(published.body).toMatchObject({
        object: 'published-content-site',
        site: { id: site.id },
        structure: { type: 'siteSpaces' },
        scripts: [],
      });
      const custom = published.body.customizations.site;
      for (const key of [
        'styling',
        'internationalization',
        'favicon',
        'header',
        'footer',
        'themes',
        'pdf',
        'feedback',
        'aiSearch',
        'ai',
      ]) {
        expect(custom).toHaveProperty(key);
      }
      expect(custom.ai.pageLinkSummaries).toEqual({ enabled: false });
    });

    it('lets a valid key read a published share-link site and its spaces without a role, and nothing else', async () => {
      const inside = await newSpace('Shared');
      const outside = await newSpace('Private');
      const site = await newSite({ spaces: [inside], visibility: 'share-link' });
      const base = `${sites()}/${site.id}`;
      const created = await as(ada.token).post(`${base}/share-links`, { name: 'Partners' });
      expect(created.status).toBe(201);
      const key = created.body.key as string;
      expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
      const listed = await as(ada.token).get(`${base}/share-links`);
      expect(listed.body.items[0]).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
      expect(JSON.stringify(listed.body)).not.toContain(key);

      // not yet published: the key opens nothing
      await refused(() => as(stranger.token).get(`${base}/published?shareKey=${key}`), 404);
      await as(ada.token).post(`${base}/publish`);
      const read = await as(stranger.token).get(`${base}/published?shareKey=${key}`);
      expect(read.status).toBe(200);
      expect(read.body.structure.structure[0].space.id).toBe(inside);
      expect((await as(stranger.token).get(`${base}/site-spaces?shareKey=${key}`)).status).toBe(200);
      expect((await as(stranger.token).get(`${base}/sections?shareKey=${key}`)).status).toBe(200);
      expect((await as(stranger.token).get(`/v1/spaces/${inside}?shareKey=${key}`)).status).toBe(200);
      await refused(() => as(stranger.token).get(`/v1/spaces/${outside}?shareKey=${key}`), 404);
      await refused(() => as(stranger.token).get(`/v1/spaces/${inside}`), 404);
      await refused(() => as(stranger.token).get(`${base}/published?shareKey=wrong`), 404);
      await refused(() => as(stranger.token).get(`${base}/published`), 404);
      // the site itself is not among what a key opens (its GET takes no shareKey at all)
      await refused(() => as(stranger.token).get(`${base}?shareKey=${key}`), 400, /shareKey/);
      await refused(() => as(stranger.token).get(`${base}`), 404);
      // a key never grants a write
      await refused(() => as(stranger.token).patch(`/v1/spaces/${inside}?shareKey=${key}`, { title: 'Mine' }), 404);
      await refused(() => as(stranger.token).patch(`${base}`, { title: 'Mine' }), 404);

      // turned off, then revoked
      const link = `${base}/share-links/${created.body.id}`;
      expect((await as(ada.token).patch(link, { active: false })).body.active).toBe(false);
      await refused(() => as(stranger.token).get(`${base}/published?shareKey=${key}`), 404);
      await as(ada.token).patch(link, { active: true });
      expect((await as(stranger.token).get(`${base}/published?shareKey=${key}`)).status).toBe(200);
      expect((await as(ada.token).delete(link)).status).toBe(204);
      await refused(() => as(stranger.token).get(`${base}/published?shareKey=${key}`), 404);
      await refused(() => as(stranger.token).get(`/v1/spaces/${inside}?shareKey=${key}`), 404);
      // a site that is not shared by link ignores keys
      const second = await as(ada.token).post(`${base}/share-links`, { name: 'Again' });
      await as(ada.token).patch(base, { visibility: 'public' });
      await refused(() => as(stranger.token).get(`${base}/published?shareKey=${second.body.key}`), 404);
    });

    it('keeps the key out of every stored event', async () => {
      const site = await newSite({ spaces: [await newSpace('Secret')], visibility: 'share-link' });
      const created = await as(ada.token).post(`${sites()}/${site.id}/share-links`, { name: 'Leak check' });
      const events = await service.events.readStream(`site-${site.id}`);
      expect(events.length).toBeGreaterThan(1);
      expect(JSON.stringify(events.map((event) => [event.data, event.metadata]))).not.toContain(created.body.key);
    });
  });

  describe('access', () => {
    it('lets readers read, only admins change, hides other organizations, and appends nothing when refused', async () => {
      const spaceId = await newSpace('Matrix');
      const site = await newSite({ spaces: [spaceId] });
      const base = `${sites()}/${site.id}`;
      expect((await as(reader.token).get(sites())).status).toBe(200);
      expect((await as(reader.token).get(base)).status).toBe(200);
      expect((await as(reader.token).get(`${base}/published`)).status).toBe(200);
      await refused(() => as(reader.token).post(sites(), { title: 'Mine' }), 403, /admin/);
      await refused(() => as(reader.token).patch(base, { title: 'Mine' }), 403);
      await refused(() => as(reader.token).post(`${base}/publish`), 403);
      await refused(() => as(reader.token).delete(base), 403);
      await refused(() => as(reader.token).post(`${base}/site-spaces`, { spaceId }), 403);
      await refused(() => as(reader.token).get(`${base}/share-links`), 403);
      await refused(() => as(bob.token).get(base), 404);
      await refused(() => as(bob.token).get(sites()), 404);
      await refused(() => as(bob.token).get(`${sites(bob.organizationId)}/${site.id}`), 404);
      await refused(() => as(bob.token).patch(`${sites(bob.organizationId)}/${site.id}`, { title: 'Mine' }), 404);
      await refused(() => as(stranger.token).get(base), 404);
    });

    it('works through the official client: a site from two spaces, a section, published, read back', async () => {
      const client = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
      const one = await newSpace('Client one');
      const two = await newSpace('Client two');
      const created = await client.orgs.createSite(ada.organizationId, { title: 'Client site', spaces: [one, two] });
      expect(created.data.siteSpaces).toBe(2);
      const three = await newSpace('Client three');
      const section = await client.orgs.addSectionToSite(ada.organizationId, created.data.id, { spaceId: three });
      expect(section.data.siteSpaces).toHaveLength(3);
      const published = await client.orgs.publishSite(ada.organizationId, created.data.id);
      expect(published.data).toMatchObject({ published: true });
      const view = await client.orgs.getPublishedContentSite(ada.organizationId, created.data.id);
      expect(view.data.structure.type).toBe('sections');
      expect(view.data.site.published).toBe(true);
    });
  });
});
