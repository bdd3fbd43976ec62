import { GitBookAPI as GitBookAPI091 } from 'gitbook-spec-0091';
import { type Response, TestService } from '../support/service';

/**
 * Custom fields of an organization and their values on spaces, over real HTTP on the embedded backends. Every 2xx
 * answer is checked against the custom-field operations of spec 0.91.0 (the last one that has them) by
 * `TestService.call`; refused calls are checked to append no event.
 */

type Account = { userId: string; token: string; organizationId: string };
type Caller = { userId: string; token: string };

describe('extensibility: custom fields', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let reader: Caller;
  let editor: Caller;
  let stranger: Caller;

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);
  const fields = (org = ada.organizationId) => `/v1/orgs/${org}/custom-fields`;
  const spaceFields = (spaceId: string) => `/v1/spaces/${spaceId}/custom-fields`;

  beforeAll(async () => {
    service = await TestService.start();
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
  });

  afterAll(async () => {
    await service?.stop();
  });

  async function newSpace(title: string, account: Account = ada): Promise<string> {
    const created = await as(account.token).post(`/v1/orgs/${account.organizationId}/spaces`, { title });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function newField(body: Record<string, unknown>, account: Account = ada) {
    service.clock.advance(1000);
    const created = await as(account.token).post(fields(account.organizationId), body);
    expect(created.status).toBe(201);
    return created.body;
  }

  /** The space's answer as `{name: value}`, leaving out fields without a value. */
  async function valuesOf(spaceId: string, token = ada.token): Promise<Record<string, unknown>> {
    const response = await as(token).get(spaceFields(spaceId));
    expect(response.status).toBe(200);
    return Object.fromEntries(
      (response.body as { customField: { name: string }; value?: unknown }[])
        .filter((one) => 'value' in one)
        .map((one) => [one.customField.name, one.value]),
    );
  }

  describe('fields of an organization', () => {
    it('creates a field with the spec shape, `object`, a Location, and defaults', async () => {
      const response = await as(ada.token).post(fields(), { name: 'owner', type: 'text' });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(response.body.urls.location);
      expect(response.body).toEqual({
        object: 'custom-field',
        id: expect.any(String),
        name: 'owner',
        title: 'owner',
        description: '',
        placeholder: '',
        type: 'text',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        urls: { location: `http://quire.test/v1/orgs/${ada.organizationId}/custom-fields/owner` },
      });
      const read = await as(ada.token).get(fields() + '/owner');
      expect(read.status).toBe(200);
      expect(read.body).toEqual(response.body);
    });

    it('lists fields oldest first, with pagination', async () => {
      const { organizationId } = bob;
      for (const name of ['alpha', 'beta', 'gamma']) await newField({ name, type: 'number' }, bob);
      const first = await as(bob.token).get(`${fields(organizationId)}?limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((one: { name: string }) => one.name)).toEqual(['alpha', 'beta']);
      const second = await as(bob.token).get(`${fields(organizationId)}?limit=2&page=${first.body.next.page}`);
      expect(second.body.items.map((one: { name: string }) => one.name)).toEqual(['gamma']);
      expect(second.body.next).toBeUndefined();
    });

    it('changes title, description, placeholder and options; name and type cannot change', async () => {
      await newField({ name: 'stage', type: 'select:single', options: ['draft', 'final'] });
      const response = await as(ada.token).patch(fields() + '/stage', {
        title: 'Stage',
        description: 'Where the space is in its life',
        placeholder: 'Pick one',
        options: ['draft', 'review', 'final'],
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'stage',
        type: 'select:single',
        title: 'Stage',
        description: 'Where the space is in its life',
        placeholder: 'Pick one',
        options: ['draft', 'review', 'final'],
      });
      await refused(() => as(ada.token).patch(fields() + '/stage', { name: 'phase' }), 400, /name: unknown field/);
      await refused(() => as(ada.token).patch(fields() + '/stage', { type: 'text' }), 400, /type: unknown field/);
      await refused(() => as(ada.token).patch(fields() + '/nope', { title: 'x' }), 404);
    });

    it('refuses a name already used in the organization (409), but not in another organization', async () => {
      await newField({ name: 'team', type: 'text' });
      await refused(() => as(ada.token).post(fields(), { name: 'team', type: 'number' }), 409, /team/);
      await newField({ name: 'team', type: 'text' }, bob);
    });

    it('refuses bad input with the field named, and appends nothing', async () => {
      const post = (body: Record<string, unknown>) => () => as(ada.token).post(fields(), body);
      for (const name of ['Owner', 'has space', 'dot.ted', '', 'x'.repeat(51), 'é']) {
        await refused(post({ name, type: 'text' }), 400, /name/);
      }
      await refused(post({ type: 'text' }), 400, /name/);
      await refused(post({ name: 'n' }), 400, /type/);
      await refused(post({ name: 'n', type: 'date' }), 400, /type/);
      await refused(post({ name: 'n', type: 'text', title: 'x'.repeat(101) }), 400, /title/);
      await refused(post({ name: 'n', type: 'text', description: 'x'.repeat(201) }), 400, /description/);
      await refused(post({ name: 'n', type: 'text', placeholder: 'x'.repeat(101) }), 400, /placeholder/);
      await refused(post({ name: 'n', type: 'text', options: ['a'] }), 400, /options: only select/);
      await refused(post({ name: 'n', type: 'select:multi' }), 400, /options/);
      await refused(post({ name: 'n', type: 'select:multi', options: [] }), 400, /options/);
      const options = Array.from({ length: 51 }, (_, index) => `option-${index}`);
      await refused(post({ name: 'n', type: 'select:multi', options }), 400, /options: must have 1 to 50/);
      await refused(post({ name: 'n', type: 'select:multi', options: ['x'.repeat(41)] }), 400, /options\[0\]/);
      await refused(post({ name: 'n', type: 'select:multi', options: ['a', 'a'] }), 400, /options/);
      await refused(post({ name: 'n', type: 'select:multi', options: [1] }), 400, /options/);
      await refused(post({ name: 'n', type: 'text', colour: 'red' }), 400, /colour: unknown field/);
      await refused(post({ name: 'n', type: 'text', title: null }), 400, /title/);
      // lengths count code points: 50 options and a title of 100 emoji are fine
      const fine = await as(ada.token).post(fields(), {
        name: 'big',
        type: 'select:multi',
        title: '😀'.repeat(100),
        options: options.slice(0, 50),
      });
      expect(fine.status).toBe(201);
      await refused(post({ name: 'n', type: 'text', title: '😀'.repeat(101) }), 400, /title/);
    });

    it('deletes a field (204), and a field already gone is 204 too', async () => {
      await newField({ name: 'doomed', type: 'boolean' });
      const deleted = await as(ada.token).delete(fields() + '/doomed');
      expect(deleted.status).toBe(204);
      expect((await as(ada.token).get(fields() + '/doomed')).status).toBe(404);
      const again = await as(ada.token).delete(fields() + '/doomed');
      expect(again.status).toBe(204);
    });
  });

  describe('values of a space', () => {
    let space: string;

    beforeAll(async () => {
      await newField({ name: 'priority', type: 'number' });
      await newField({ name: 'public', type: 'boolean' });
      await newField({ name: 'labels', type: 'tags' });
      await newField({ name: 'audience', type: 'select:multi', options: ['devs', 'ops', 'sales'] });
      space = await newSpace('Handbook');
    });

    it('lists every field of the organization, without values never set', async () => {
      const response = await as(ada.token).get(spaceFields(space));
      expect(response.status).toBe(200);
      const names = (response.body as { customField: { name: string } }[]).map((one) => one.customField.name);
      expect(names).toEqual(expect.arrayContaining(['owner', 'stage', 'priority', 'public', 'labels', 'audience']));
      expect(names).not.toContain('alpha'); // Bob's
      expect(response.body.every((one: object) => !('value' in one))).toBe(true);
      expect(response.body[0].customField.object).toBe('custom-field');
    });

    it('sets values of every type (204), keeps fields left out, and removes one with null', async () => {
      const set = await as(ada.token).patch(spaceFields(space), {
        values: {
          owner: { value: 'Ada' },
          stage: { value: 'review' },
          priority: { value: 2.5 },
          public: { value: false },
          labels: { value: ['api', 'beta'] },
          audience: { value: ['ops', 'devs'] },
        },
      });
      expect(set.status).toBe(204);
      expect(set.body).toBe('');
      expect(await valuesOf(space)).toEqual({
        owner: 'Ada',
        stage: 'review',
        priority: 2.5,
        public: false,
        labels: ['api', 'beta'],
        audience: ['ops', 'devs'],
      });

      const more = await as(ada.token).patch(spaceFields(space), {
        values: { priority: { value: 3 }, owner: { value: null } },
      });
      expect(more.status).toBe(204);
      const now = await valuesOf(space);
      expect(now).toMatchObject({ priority: 3, stage: 'review', public: false });
      expect(now).not.toHaveProperty('owner');
    });

    it('refuses a value of the wrong type, an unknown field, and applies nothing of a refused PATCH', async () => {
      const before = await valuesOf(space);
      const patch = (values: Record<string, unknown>) => () => as(ada.token).patch(spaceFields(space), { values });
      await refused(patch({ priority: { value: 'high' } }), 400, /values.priority.value: must be a number/);
      await refused(patch({ public: { value: 'yes' } }), 400, /values.public.value/);
      await refused(patch({ owner: { value: 'x'.repeat(257) } }), 400, /values.owner.value/);
      await refused(patch({ labels: { value: ['ok', 'x'.repeat(257)] } }), 400, /values.labels.value\[1\]/);
      await refused(patch({ stage: { value: 'shipped' } }), 400, /values.stage.value: "shipped"/);
      await refused(patch({ audience: { value: ['devs', 'execs'] } }), 400, /"execs"/);
      await refused(patch({ colour: { value: 'red' } }), 400, /no custom field named colour/);
      await refused(patch({ owner: 'Ada' }), 400, /values.owner: must be an object/);
      await refused(patch({ owner: {} }), 400, /values.owner.value: required/);
      await refused(patch({ owner: { value: 'Ada', extra: 1 } }), 400, /values.owner.extra: unknown field/);
      await refused(patch({ owner: { value: { nested: true } } }), 400, /values.owner.value/);
      await refused(patch({}), 400, /values/);
      await refused(() => as(ada.token).patch(spaceFields(space), {}), 400, /values/);
      // one good value beside a bad one: neither is applied
      await refused(patch({ priority: { value: 9 }, stage: { value: 'shipped' } }), 400, /stage/);
      await refused(patch({ priority: { value: 9 }, colour: { value: 'red' } }), 400, /colour/);
      expect(await valuesOf(space)).toEqual(before);
    });

    it('keeps a value readable when its option is narrowed away, and checks new values against the new options', async () => {
      const other = await newSpace('Narrowed');
      await as(ada.token).patch(spaceFields(other), { values: { audience: { value: ['sales', 'devs'] } } });
      const narrowed = await as(ada.token).patch(fields() + '/audience', { options: ['devs', 'ops'] });
      expect(narrowed.status).toBe(200);
      expect(await valuesOf(other)).toEqual({ audience: ['sales', 'devs'] });
      await refused(
        () => as(ada.token).patch(spaceFields(other), { values: { audience: { value: ['sales'] } } }),
        400,
        /"sales"/,
      );
    });

    it('removes values with their field, and a field created again under the name starts empty', async () => {
      const one = await newSpace('One');
      const two = await newSpace('Two');
      await newField({ name: 'codename', type: 'text' });
      for (const [spaceId, value] of [
        [one, 'apollo'],
        [two, 'gemini'],
      ]) {
        const set = await as(ada.token).patch(spaceFields(spaceId), { values: { codename: { value } } });
        expect(set.status).toBe(204);
      }
      expect(await valuesOf(one)).toEqual({ codename: 'apollo' });
      expect((await as(ada.token).delete(fields() + '/codename')).status).toBe(204);
      const names = (await as(ada.token).get(spaceFields(one))).body.map(
        (item: { customField: { name: string } }) => item.customField.name,
      );
      expect(names).not.toContain('codename');
      // the values themselves are gone from the read model, not just hidden
      const stored = await service.reads.get('space_custom_field_values', `${ada.organizationId}:${one}`);
      expect(stored).toBeNull();

      await newField({ name: 'codename', type: 'text' });
      expect(await valuesOf(one)).toEqual({});
      expect(await valuesOf(two)).toEqual({});
    });
  });

  describe('who may do what', () => {
    let space: string;

    beforeAll(async () => {
      space = await newSpace('Access');
    });

    it('lets members read fields, and refuses their changes (403) with nothing appended', async () => {
      for (const caller of [reader, editor]) {
        expect((await as(caller.token).get(fields())).status).toBe(200);
        expect((await as(caller.token).get(fields() + '/owner')).status).toBe(200);
        await refused(() => as(caller.token).post(fields(), { name: 'mine', type: 'text' }), 403, /admin/);
        await refused(() => as(caller.token).patch(fields() + '/owner', { title: 'Mine' }), 403, /admin/);
        await refused(() => as(caller.token).delete(fields() + '/owner'), 403, /admin/);
      }
    });

    it('lets readers read a space’s values and editors change them', async () => {
      expect((await as(reader.token).get(spaceFields(space))).status).toBe(200);
      await refused(
        () => as(reader.token).patch(spaceFields(space), { values: { priority: { value: 1 } } }),
        403,
        /edit/,
      );
      const set = await as(editor.token).patch(spaceFields(space), { values: { priority: { value: 1 } } });
      expect(set.status).toBe(204);
      expect(await valuesOf(space, reader.token)).toMatchObject({ priority: 1 });
    });

    it('hides another organization’s fields and spaces (404), with nothing appended', async () => {
      for (const caller of [stranger, bob]) {
        await refused(() => as(caller.token).get(fields()), 404);
        await refused(() => as(caller.token).get(fields() + '/owner'), 404);
        await refused(() => as(caller.token).post(fields(), { name: 'x', type: 'text' }), 404);
        await refused(() => as(caller.token).patch(fields() + '/owner', { title: 'x' }), 404);
        await refused(() => as(caller.token).delete(fields() + '/owner'), 404);
        await refused(() => as(caller.token).get(spaceFields(space)), 404);
        await refused(() => as(caller.token).patch(spaceFields(space), { values: { owner: { value: 'x' } } }), 404);
      }
      await refused(() => as(ada.token).get(spaceFields('no-such-space')), 404);
      await refused(() => as(ada.token).get(fields(bob.organizationId) + '/alpha'), 404);
    });

    it('refuses a call without a token (401)', async () => {
      await refused(() => service.call('GET', fields()), 401);
    });
  });

  it('works through the official 0.91.0 client, the last one with custom fields', async () => {
    const api = new GitBookAPI091({ authToken: ada.token, endpoint: service.url });
    const orgId = ada.organizationId;
    const created = await api.orgs.createOrganizationCustomField(orgId, {
      name: 'client-field',
      type: 'select:single' as never,
      title: 'From the client',
      options: ['yes', 'no'],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'client-field', title: 'From the client' });
    const read = await api.orgs.getOrganizationCustomFieldByName(orgId, 'client-field');
    expect(read.data.options).toEqual(['yes', 'no']);
    const updated = await api.orgs.updateOrganizationCustomField(orgId, 'client-field', { placeholder: 'Yes or no' });
    expect(updated.data.placeholder).toBe('Yes or no');
    const list = await api.orgs.listOrganizationCustomFields(orgId, { limit: 1000 });
    expect(list.data.items.map((one) => one.name)).toContain('client-field');

    const spaceId = await newSpace('Client space');
    const patched = await api.spaces.updateSpaceCustomFields(spaceId, { values: { 'client-field': { value: 'yes' } } });
    expect(patched.status).toBe(204);
    const values = await api.spaces.getSpaceCustomFields(spaceId);
    expect(values.data.find((one) => one.customField.name === 'client-field')?.value).toBe('yes');

    const deleted = await api.orgs.deleteOrganizationCustomField(orgId, 'client-field');
    expect(deleted.status).toBe(204);
    await expect(api.orgs.getOrganizationCustomFieldByName(orgId, 'client-field')).rejects.toMatchObject({
      code: 404,
    });
  });

  it('rebuilds its read models from the events and answers the same', async () => {
    const spaceId = await newSpace('Rebuilt');
    await as(ada.token).patch(spaceFields(spaceId), { values: { priority: { value: 7 }, labels: { value: ['x'] } } });
    const before = { list: await as(ada.token).get(`${fields()}?limit=1000`), space: await valuesOf(spaceId) };
    expect(before.space).toEqual({ priority: 7, labels: ['x'] });
    await service.reads.dropCollection('custom_fields');
    await service.reads.dropCollection('space_custom_field_values');
    expect((await as(ada.token).get(fields())).body.count).toBe(0);
    await service.runtime.projections.rebuild('custom_fields');
    await service.runtime.projections.rebuild('space_custom_field_values');
    expect((await as(ada.token).get(`${fields()}?limit=1000`)).body).toEqual(before.list.body);
    expect(await valuesOf(spaceId)).toEqual(before.space);
  });

  it('validated every custom-field answer against spec 0.91.0', () => {
    expect([...service.validated].sort()).toEqual(
      expect.arrayContaining([
        'createOrganizationCustomField',
        'getOrganizationCustomFieldByName',
        'getSpaceCustomFields',
        'listOrganizationCustomFields',
        'updateOrganizationCustomField',
      ]),
    );
  });
});
