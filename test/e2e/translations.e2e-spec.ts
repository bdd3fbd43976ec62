import { GitBookAPI } from '@gitbook/api';
import { type Response, TestService } from '../support/service';

/**
 * Translation settings (the seed's `{title, languages}` resource) over real HTTP on the embedded backends. The
 * official spec describes another resource at these paths (translation jobs), so answers are checked here against
 * the seed's shape rather than by the conformance check; refused calls are checked to append no event.
 */

type Account = { userId: string; token: string; organizationId: string };
type Caller = { userId: string; token: string };

describe('extensibility: translation settings', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let reader: Caller;
  let stranger: Caller;

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);
  const translations = (org = ada.organizationId) => `/v1/orgs/${org}/translations`;

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

  async function newSettings(body: Record<string, unknown> = {}, account: Account = ada) {
    service.clock.advance(1000);
    const created = await as(account.token).post(translations(account.organizationId), { title: 'Docs', ...body });
    expect(created.status).toBe(201);
    return created.body;
  }

  it('creates settings in the seed shape, with a Location, an ETag and no languages by default', async () => {
    const response = await as(ada.token).post(translations(), { title: 'Localization' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      object: 'translation-settings',
      id: expect.any(String),
      title: 'Localization',
      languages: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      permissions: { view: true, edit: true },
      urls: { location: `http://quire.test/v1/orgs/${ada.organizationId}/translations/${response.body.id}` },
    });
    expect(response.headers.get('location')).toBe(response.body.urls.location);
    expect(response.headers.get('etag')).toBe('"0"');
    const read = await as(ada.token).get(`${translations()}/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('accepts languages from the spec list on POST, keeps them when a PUT leaves them out, replaces them when given', async () => {
    const created = await newSettings({ title: 'Europe', languages: ['fr', 'de', 'pt-br'] });
    expect(created.languages).toEqual(['fr', 'de', 'pt-br']);
    const path = `${translations()}/${created.id}`;
    service.clock.advance(1000);
    const renamed = await as(ada.token).put(path, { title: 'European languages' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'European languages', languages: ['fr', 'de', 'pt-br'] });
    expect(renamed.body.updatedAt > created.updatedAt).toBe(true);
    const replaced = await as(ada.token).put(path, { title: 'Asia', languages: ['ja', 'zh-tw'] });
    expect(replaced.body.languages).toEqual(['ja', 'zh-tw']);
    const cleared = await as(ada.token).put(path, { title: 'None', languages: [] });
    expect(cleared.body.languages).toEqual([]);
  });

  it('lists settings oldest first, with pagination', async () => {
    for (const title of ['One', 'Two', 'Three']) await newSettings({ title }, bob);
    const first = await as(bob.token).get(`${translations(bob.organizationId)}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((one: { title: string }) => one.title)).toEqual(['One', 'Two']);
    const second = await as(bob.token).get(`${translations(bob.organizationId)}?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((one: { title: string }) => one.title)).toEqual(['Three']);
    expect(second.body.next).toBeUndefined();
  });

  it('refuses bad input with the field named, and appends nothing', async () => {
    const post = (body: Record<string, unknown>) => () => as(ada.token).post(translations(), body);
    await refused(post({}), 400, /title/);
    await refused(post({ title: '' }), 400, /title/);
    await refused(post({ title: 'x'.repeat(101) }), 400, /title/);
    await refused(post({ title: '🌍'.repeat(101) }), 400, /title/);
    await refused(post({ title: 42 }), 400, /title/);
    await refused(post({ title: 'T', languages: ['fr', 'klingon'] }), 400, /languages: "klingon"/);
    await refused(post({ title: 'T', languages: ['fr', 'fr'] }), 400, /languages/);
    await refused(post({ title: 'T', languages: 'fr' }), 400, /languages/);
    await refused(post({ title: 'T', colour: 'red' }), 400, /colour: unknown field/);
    const fine = await as(ada.token).post(translations(), { title: '🌍'.repeat(100) });
    expect(fine.status).toBe(201);

    const path = `${translations()}/${fine.body.id}`;
    await refused(() => as(ada.token).put(path, {}), 400, /title/);
    await refused(() => as(ada.token).put(path, { title: 'x'.repeat(101) }), 400, /title/);
    await refused(() => as(ada.token).put(path, { title: 'T', languages: ['xx'] }), 400, /languages/);
    await refused(() => as(ada.token).put(path, { title: 'T', id: 'other' }), 400, /id: unknown field/);
  });

  it('honours If-Match on PUT and DELETE (412 when stale)', async () => {
    const created = await newSettings({ title: 'Versioned' });
    const path = `${translations()}/${created.id}`;
    const first = await service.call('PUT', path, {
      token: ada.token,
      body: { title: 'First' },
      headers: { 'if-match': '"0"' },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"1"');
    await refused(
      () => service.call('PUT', path, { token: ada.token, body: { title: 'Stale' }, headers: { 'if-match': '"0"' } }),
      412,
    );
    await refused(() => service.call('DELETE', path, { token: ada.token, headers: { 'if-match': '"0"' } }), 412);
    expect((await as(ada.token).get(path)).body.title).toBe('First');
  });

  it('deletes (204), answers 404 afterwards, and a second delete is 204 too', async () => {
    const created = await newSettings({ title: 'Doomed' });
    const path = `${translations()}/${created.id}`;
    expect((await as(ada.token).delete(path)).status).toBe(204);
    await refused(() => as(ada.token).get(path), 404);
    await refused(() => as(ada.token).put(path, { title: 'Back' }), 404);
    const again = await as(ada.token).delete(path);
    expect(again.status).toBe(204);
    const listed = await as(ada.token).get(translations());
    expect(listed.body.items.map((one: { id: string }) => one.id)).not.toContain(created.id);
    await refused(() => as(ada.token).delete(`${translations()}/never-existed`), 404);
  });

  describe('who may do what', () => {
    let id: string;

    beforeAll(async () => {
      id = (await newSettings({ title: 'Guarded', languages: ['en'] })).id;
    });

    it('lets a member read, without edit permission, and refuses their changes (403)', async () => {
      const read = await as(reader.token).get(`${translations()}/${id}`);
      expect(read.status).toBe(200);
      expect(read.body.permissions).toEqual({ view: true, edit: false });
      const list = await as(reader.token).get(translations());
      expect(list.status).toBe(200);
      expect(list.body.items.every((one: { permissions: { edit: boolean } }) => !one.permissions.edit)).toBe(true);
      await refused(() => as(reader.token).post(translations(), { title: 'Mine' }), 403, /admin/);
      await refused(() => as(reader.token).put(`${translations()}/${id}`, { title: 'Mine' }), 403, /admin/);
      await refused(() => as(reader.token).delete(`${translations()}/${id}`), 403, /admin/);
    });

    it('hides the organization and its settings from strangers and other organizations (404)', async () => {
      for (const caller of [stranger, bob]) {
        await refused(() => as(caller.token).get(translations()), 404);
        await refused(() => as(caller.token).get(`${translations()}/${id}`), 404);
        await refused(() => as(caller.token).post(translations(), { title: 'x' }), 404);
        await refused(() => as(caller.token).put(`${translations()}/${id}`, { title: 'x' }), 404);
        await refused(() => as(caller.token).delete(`${translations()}/${id}`), 404);
      }
    });

    it("answers 404 for another organization's settings under one's own organization", async () => {
      const theirs = await newSettings({ title: 'Theirs' }, bob);
      const path = `${translations()}/${theirs.id}`;
      await refused(() => as(ada.token).get(path), 404);
      await refused(() => as(ada.token).put(path, { title: 'Taken' }), 404);
      await refused(() => as(ada.token).delete(path), 404);
      expect((await as(bob.token).get(`${translations(bob.organizationId)}/${theirs.id}`)).body.title).toBe('Theirs');
    });
  });

  it('rebuilds its read model from the events and answers the same', async () => {
    const before = await as(ada.token).get(`${translations()}?limit=1000`);
    expect(before.body.count).toBeGreaterThan(0);
    await service.reads.dropCollection('translation_settings');
    expect((await as(ada.token).get(translations())).body.count).toBe(0);
    await service.runtime.projections.rebuild('translation_settings');
    expect((await as(ada.token).get(`${translations()}?limit=1000`)).body).toEqual(before.body);
  });

  it('works through the official client (whose types describe translation jobs: bodies are cast)', async () => {
    const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
    const orgId = ada.organizationId;
    const created = await api.orgs.createTranslation(orgId, { title: 'Client', languages: ['es'] } as never);
    expect(created.status).toBe(201);
    const id = (created.data as unknown as { id: string }).id;
    const read = await api.orgs.getTranslation(orgId, id);
    expect(read.data).toMatchObject({ object: 'translation-settings', title: 'Client', languages: ['es'] });
    const updated = await api.orgs.updateTranslation(orgId, id, { title: 'Client (es)' } as never);
    expect(updated.data).toMatchObject({ title: 'Client (es)', languages: ['es'] });
    const list = await api.orgs.listTranslations(orgId);
    expect(list.data.items.map((one) => one.id)).toContain(id);
    const deleted = await api.orgs.deleteTranslation(orgId, id);
    expect(deleted.status).toBe(204);
    await expect(api.orgs.getTranslation(orgId, id)).rejects.toMatchObject({ code: 404 });
  });
});
