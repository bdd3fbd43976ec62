import { type FileNode, type PageInput, publishRevision } from '@app/content';
import { type Response, TestService, expectError } from '../support/service';

/**
 * Who may do what on collections, spaces and their content, over real HTTP on the embedded backends: every
 * endpoint is called by a member of each organization role and by an outsider, and every refused call is checked
 * to append no event. A second part checks that default levels (`defaultLevel` on collections and spaces) widen
 * access the way the README's access section describes.
 */

type Account = { userId: string; token: string; organizationId: string };
type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
type Caller = Role | 'none';

const ROLES: Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
const CALLERS: Caller[] = [...ROLES, 'none'];
const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };
const atLeast = (role: Role, required: Role) => RANK[role] >= RANK[required];

/** The Collection `permissions` a caller with `role` should be shown (written out here, not imported). */
const collectionPermissions = (role: Role) => ({
  view: true,
  admin: role === 'admin',
  viewInviteLinks: role === 'admin',
  create: atLeast(role, 'create'),
});

/** The Space `permissions` a caller with `role` should be shown on a space that is not locked. */
const spacePermissions = (role: Role) => ({
  view: true,
  access: true,
  admin: role === 'admin',
  viewInviteLinks: role === 'admin',
  edit: atLeast(role, 'edit'),
  triggerGitSync: atLeast(role, 'edit'),
  comment: atLeast(role, 'comment'),
  merge: atLeast(role, 'review'),
  review: atLeast(role, 'review'),
  installIntegration: role === 'admin',
});

const PAGES: PageInput[] = [
  { id: 'intro', title: 'Introduction', markdown: '# Welcome', pages: [] },
  { id: 'faq', title: 'FAQ', markdown: 'Questions.' },
];
const FILES: FileNode[] = [
  {
    id: 'logo',
    name: 'logo.png',
    contentType: 'image/png',
    size: 1024,
    downloadURL: 'https://files.example.com/logo.png',
  },
];

const ids = (list: Response) => list.body.items.map((item: { id: string }) => item.id);

describe('content access by role (e2e)', () => {
  let service: TestService;
  /** Created "Acme" and administers it; makes every fixture. */
  let owner: Account;
  /** A user with their own organization and no place in Acme. */
  let outsider: Account;
  /** The six members of Acme, by role. */
  const members = {} as Record<Role, { userId: string; token: string }>;
  /** A second organization where the owner and the `admin` member are admins, and nobody else is a member. */
  let target: string;

  /** Shared fixtures, only read by the tests. */
  let shared: { collection: string; innerSpace: string; space: string; moveSource: string; moveTarget: string };

  const org = () => owner.organizationId;
  const tokenOf = (caller: Caller) => (caller === 'none' ? outsider.token : members[caller].token);

  const call = (token: string, method: string, path: string, body?: unknown) =>
    service.call(method, path, { token, body });

  /** Makes a fixture as the owner. */
  async function make(path: string, body: Record<string, unknown> = {}): Promise<string> {
    const created = await call(owner.token, 'POST', path, body);
    expect(created.status).toBe(201);
    return created.body.id;
  }
  const newCollection = (body: Record<string, unknown> = {}) =>
    make(`/v1/orgs/${org()}/collections`, { title: 'Fixture', ...body });
  const newSpace = (body: Record<string, unknown> = {}) =>
    make(`/v1/orgs/${org()}/spaces`, { title: 'Fixture', ...body });

  beforeAll(async () => {
    service = await TestService.start();
    owner = await service.signUp('owner@acme.test', { name: 'Owner', org: 'Acme' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    for (const role of ROLES) {
      const user = await service.signUp(`${role}@acme.test`, { name: `The ${role} member` });
      members[role] = { userId: user.userId, token: user.token };
      const invited = await call(owner.token, 'POST', `/v1/orgs/${org()}/invites`, {
        emails: [`${role}@acme.test`],
        role,
      });
      expect(invited.body).toEqual({ users: [user.userId], invited: 0 });
    }
    // the default levels are all "inherit" and the organization grants nothing by default
    expect((await call(owner.token, 'GET', `/v1/orgs/${org()}`)).body.defaultRole ?? null).toBeNull();

    const second = await call(owner.token, 'POST', '/v1/orgs', { title: 'Acme Two' });
    expect(second.status).toBe(201);
    target = second.body.id;
    await call(owner.token, 'POST', `/v1/orgs/${target}/invites`, { emails: ['admin@acme.test'], role: 'admin' });

    const collection = await newCollection({ title: 'Shared' });
    const innerSpace = await newSpace({ title: 'Inside shared', parent: collection });
    const space = await newSpace({ title: 'Top level' });
    const current = (await call(owner.token, 'GET', `/v1/spaces/${space}`)).body.revision as string;
    await publishRevision(
      service.events,
      { now: service.clock.now().toISOString(), actor: owner.userId },
      { spaceId: space, parents: [current], pages: PAGES, files: FILES },
    );
    await service.runtime.catchUp();
    shared = {
      collection,
      innerSpace,
      space,
      moveSource: await newCollection({ title: 'Move source' }),
      moveTarget: await newCollection({ title: 'Move target' }),
    };
  }, 30_000);

  afterAll(async () => {
    await service?.stop();
  });

  interface Endpoint {
    /** The operation as the test names show it. */
    label: string;
    method: string;
    /** Who succeeds, with which status; other members get `refused` (403 unless said), the outsider 404. */
    allowed: Caller[];
    success: number;
    refused?: number;
    /** Builds the request, with fresh fixtures when the call changes something. */
    request: () => Promise<{ path: string; body?: unknown }>;
    /** More checks on a successful answer. */
    check?: (response: Response, role: Role) => Promise<void> | void;
  }

  const everyone: Caller[] = [...ROLES];
  const editors: Caller[] = ['admin', 'create', 'review', 'edit'];
  const creators: Caller[] = ['admin', 'create'];
  const admins: Caller[] = ['admin'];

  const ENDPOINTS: Endpoint[] = [
    // reads
    {
      label: 'GET /v1/orgs/{org}/collections',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/orgs/${org()}/collections?limit=1000` }),
      check: (response, role) => {
        expect(ids(response)).toContain(shared.collection);
        expect(response.body.count).toBe(response.body.items.length);
        for (const item of response.body.items) expect(item.permissions).toEqual(collectionPermissions(role));
      },
    },
    {
      label: 'GET /v1/collections/{id}',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/collections/${shared.collection}` }),
      check: (response, role) => {
        expect(response.body).toMatchObject({ id: shared.collection, title: 'Shared', defaultLevel: 'inherit' });
        expect(response.body.permissions).toEqual(collectionPermissions(role));
      },
    },
    {
      label: 'GET /v1/collections/{id}/spaces',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/collections/${shared.collection}/spaces` }),
      check: (response, role) => {
        expect(ids(response)).toEqual([shared.innerSpace]);
        expect(response.body.count).toBe(1);
        expect(response.body.items[0].permissions).toEqual(spacePermissions(role));
      },
    },
    {
      label: 'GET /v1/orgs/{org}/spaces',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/orgs/${org()}/spaces?limit=1000` }),
      check: (response, role) => {
        expect(ids(response)).toEqual(expect.arrayContaining([shared.space, shared.innerSpace]));
        expect(response.body.count).toBe(response.body.items.length);
        for (const item of response.body.items) expect(item.permissions).toEqual(spacePermissions(role));
      },
    },
    {
      label: 'GET /v1/spaces/{id}',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${shared.space}` }),
      check: (response, role) => {
        expect(response.body).toMatchObject({ id: shared.space, title: 'Top level', defaultLevel: 'inherit' });
        expect(response.body.permissions).toEqual(spacePermissions(role));
      },
    },
    {
      label: 'GET /v1/spaces/{id}/content',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${shared.space}/content` }),
      check: (response) => expect(response.body.pages).toHaveLength(2),
    },
    {
      label: 'GET /v1/spaces/{id}/content/pages',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${shared.space}/content/pages` }),
      check: (response) => expect(response.body.pages.map((p: { id: string }) => p.id)).toEqual(['intro', 'faq']),
    },
    {
      label: 'GET /v1/spaces/{id}/content/files',
      method: 'GET',
      allowed: everyone,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${shared.space}/content/files` }),
      check: (response) => expect(response.body).toMatchObject({ items: [{ id: 'logo' }], count: 1 }),
    },

    // collections
    {
      label: 'POST /v1/orgs/{org}/collections',
      method: 'POST',
      allowed: creators,
      success: 201,
      request: async () => ({ path: `/v1/orgs/${org()}/collections`, body: { title: 'New collection' } }),
      check: (response, role) => {
        expect(response.body).toMatchObject({ title: 'New collection', organization: org() });
        // creating something gives no role on it beyond the organization role
        expect(response.body.permissions).toEqual(collectionPermissions(role));
      },
    },
    {
      label: 'PATCH /v1/collections/{id}',
      method: 'PATCH',
      allowed: admins,
      success: 200,
      request: async () => ({ path: `/v1/collections/${await newCollection()}`, body: { title: 'Renamed' } }),
      check: (response) => expect(response.body.title).toBe('Renamed'),
    },
    {
      label: 'DELETE /v1/collections/{id}',
      method: 'DELETE',
      allowed: admins,
      success: 204,
      request: async () => ({ path: `/v1/collections/${await newCollection()}` }),
    },
    {
      label: 'POST /v1/collections/{id}/move',
      method: 'POST',
      allowed: admins,
      success: 200,
      request: async () => {
        const id = await newCollection({ parent: shared.moveSource });
        return { path: `/v1/collections/${id}/move`, body: { parent: null } };
      },
      check: (response) => expect(response.body.parent).toBeUndefined(),
    },
    {
      label: 'POST /v1/collections/{id}/transfer',
      method: 'POST',
      allowed: admins,
      success: 200,
      request: async () => ({
        path: `/v1/collections/${await newCollection()}/transfer`,
        body: { organization: target },
      }),
      check: (response) => expect(response.body.organization).toBe(target),
    },

    // spaces
    {
      label: 'POST /v1/orgs/{org}/spaces',
      method: 'POST',
      allowed: creators,
      success: 201,
      request: async () => ({ path: `/v1/orgs/${org()}/spaces`, body: { title: 'New space' } }),
      check: (response, role) => {
        expect(response.body).toMatchObject({ title: 'New space', organization: org() });
        expect(response.body.permissions).toEqual(spacePermissions(role));
      },
    },
    {
      label: 'PATCH /v1/spaces/{id} {title}',
      method: 'PATCH',
      allowed: editors,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${await newSpace()}`, body: { title: 'Retitled', emoji: '1f600' } }),
      check: (response, role) => {
        expect(response.body).toMatchObject({ title: 'Retitled', emoji: '1f600' });
        expect(response.body.permissions).toEqual(spacePermissions(role));
      },
    },
    {
      label: 'PATCH /v1/spaces/{id} {editMode}',
      method: 'PATCH',
      allowed: admins,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${await newSpace()}`, body: { editMode: 'locked' } }),
      check: (response) => {
        expect(response.body.editMode).toBe('locked');
        // a locked space refuses edits even to an admin
        expect(response.body.permissions).toMatchObject({ admin: true, edit: false, merge: false, review: true });
      },
    },
    {
      label: 'PATCH /v1/spaces/{id} {defaultLevel}',
      method: 'PATCH',
      allowed: admins,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${await newSpace()}`, body: { defaultLevel: 'read' } }),
      check: (response) => expect(response.body.defaultLevel).toBe('read'),
    },
    {
      label: 'DELETE /v1/spaces/{id}',
      method: 'DELETE',
      allowed: admins,
      success: 204,
      request: async () => ({ path: `/v1/spaces/${await newSpace()}` }),
    },
    {
      // A deleted space is shown only to those who may administer it (README, "Deleting"): the others cannot
      // see it, so it is not found for them rather than forbidden.
      label: 'POST /v1/spaces/{id}/restore',
      method: 'POST',
      allowed: admins,
      success: 200,
      refused: 404,
      request: async () => {
        const id = await newSpace();
        expect((await call(owner.token, 'DELETE', `/v1/spaces/${id}`)).status).toBe(204);
        return { path: `/v1/spaces/${id}/restore` };
      },
      check: (response) => expect(response.body.deletedAt).toBeUndefined(),
    },
    {
      label: 'POST /v1/spaces/{id}/duplicate',
      method: 'POST',
      allowed: creators,
      success: 201,
      request: async () => ({ path: `/v1/spaces/${shared.space}/duplicate` }),
      check: async (response, role) => {
        expect(response.body).toMatchObject({ title: 'Top level (copy)', organization: org() });
        expect(response.body.permissions).toEqual(spacePermissions(role));
        const pages = await call(tokenOf(role), 'GET', `/v1/spaces/${response.body.id}/content/pages`);
        expect(pages.body.pages.map((p: { id: string }) => p.id)).toEqual(['intro', 'faq']);
      },
    },
    {
      label: 'POST /v1/spaces/{id}/move',
      method: 'POST',
      allowed: admins,
      success: 200,
      request: async () => ({
        path: `/v1/spaces/${await newSpace()}/move`,
        body: { parent: shared.moveTarget },
      }),
      check: (response) => expect(response.body).toMatchObject({ parent: shared.moveTarget }),
    },
    {
      label: 'POST /v1/spaces/{id}/transfer',
      method: 'POST',
      allowed: admins,
      success: 200,
      request: async () => ({ path: `/v1/spaces/${await newSpace()}/transfer`, body: { organization: target } }),
      check: (response) => expect(response.body.organization).toBe(target),
    },
  ];

  const expected = (endpoint: Endpoint, caller: Caller): number => {
    if (caller === 'none') return 404;
    return endpoint.allowed.includes(caller) ? endpoint.success : (endpoint.refused ?? 403);
  };

  const table = ENDPOINTS.flatMap((endpoint) =>
    CALLERS.map((caller) => [endpoint.label, caller, expected(endpoint, caller), endpoint] as const),
  );

  it.each(table)('%s as %s → %d', async (_label, caller, status, endpoint) => {
    const { path, body } = await endpoint.request();
    const before = await service.eventCount();
    const response = await call(tokenOf(caller), endpoint.method, path, body);
    if (status >= 400) {
      expectError(response, status);
      expect(await service.eventCount()).toBe(before);
      return;
    }
    expect({ status: response.status, body: response.body }).toMatchObject({ status });
    if (endpoint.method === 'GET') expect(await service.eventCount()).toBe(before);
    else expect(await service.eventCount()).toBeGreaterThan(before);
    await endpoint.check?.(response, caller as Role);
  });

  describe('transfers need admin in the target organization too', () => {
    it('an admin of Acme who is not a member of the target cannot see it: 404', async () => {
      const lonely = await call(owner.token, 'POST', '/v1/orgs', { title: 'Owner only' });
      const space = await newSpace();
      const collection = await newCollection();
      for (const path of [`/v1/spaces/${space}/transfer`, `/v1/collections/${collection}/transfer`]) {
        const before = await service.eventCount();
        expectError(await call(members.admin.token, 'POST', path, { organization: lonely.body.id }), 404);
        expect(await service.eventCount()).toBe(before);
      }
    });

    it('an admin of Acme who only reads in the target is refused: 403', async () => {
      const readOnly = await call(owner.token, 'POST', '/v1/orgs', { title: 'Read only there' });
      await call(owner.token, 'POST', `/v1/orgs/${readOnly.body.id}/invites`, {
        emails: ['admin@acme.test'],
        role: 'read',
      });
      const space = await newSpace();
      const collection = await newCollection();
      for (const path of [`/v1/spaces/${space}/transfer`, `/v1/collections/${collection}/transfer`]) {
        const before = await service.eventCount();
        expectError(await call(members.admin.token, 'POST', path, { organization: readOnly.body.id }), 403);
        expect(await service.eventCount()).toBe(before);
      }
    });
  });

  describe('default levels', () => {
    /** An organization of its own, so that lists show exactly what the default levels grant. */
    let home: string;
    let guest: { userId: string; token: string };
    let reader: { userId: string; token: string };

    beforeAll(async () => {
      const created = await call(owner.token, 'POST', '/v1/orgs', { title: 'Inheritance' });
      home = created.body.id;
      guest = await service.signUp('guest@acme.test', { name: 'Guest' });
      reader = await service.signUp('reader@acme.test', { name: 'Reader' });
      const asGuest = await call(owner.token, 'POST', `/v1/orgs/${home}/invites`, {
        emails: ['guest@acme.test'],
        role: null,
      });
      expect(asGuest.body).toEqual({ users: [guest.userId], invited: 0 });
      const asReader = await call(owner.token, 'POST', `/v1/orgs/${home}/invites`, {
        emails: ['reader@acme.test'],
        role: 'read',
      });
      expect(asReader.body).toEqual({ users: [reader.userId], invited: 0 });
      const members = await call(owner.token, 'GET', `/v1/orgs/${home}/members`);
      expect(members.body.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: guest.userId, role: null })]),
      );
    });

    const inHome = async (kind: 'collections' | 'spaces', body: Record<string, unknown>) =>
      make(`/v1/orgs/${home}/${kind}`, { title: 'Fixture', ...body });

    /** Runs a request that must be refused with `status` and append nothing. */
    async function refused(token: string, method: string, path: string, status: number, body?: unknown) {
      const before = await service.eventCount();
      expectError(await call(token, method, path, body), status);
      expect(await service.eventCount()).toBe(before);
    }

    it('a guest sees nothing until a collection grants read; then that collection and what inherits from it', async () => {
      const granting = await inHome('collections', { title: 'Granting' });
      const inner = await inHome('collections', { title: 'Inner', parent: granting });
      const closed = await inHome('collections', { title: 'Closed' });
      const inheriting = await inHome('spaces', { title: 'Inheriting', parent: granting });
      const shut = await inHome('spaces', { title: 'Shut', parent: granting });
      expect((await call(owner.token, 'PATCH', `/v1/spaces/${shut}`, { defaultLevel: null })).status).toBe(200);
      const deep = await inHome('spaces', { title: 'Deep', parent: inner });
      const top = await inHome('spaces', { title: 'Top' });
      const elsewhere = await inHome('spaces', { title: 'Elsewhere', parent: closed });

      // nothing at first
      for (const path of [`/v1/orgs/${home}/collections`, `/v1/orgs/${home}/spaces`]) {
        const list = await call(guest.token, 'GET', path);
        expect(list.status).toBe(200);
        expect(list.body).toMatchObject({ items: [], count: 0 });
      }
      for (const path of [
        `/v1/collections/${granting}`,
        `/v1/collections/${granting}/spaces`,
        `/v1/spaces/${inheriting}`,
        `/v1/spaces/${inheriting}/content`,
        `/v1/spaces/${top}`,
      ]) {
        expectError(await call(guest.token, 'GET', path), 404);
      }
      await refused(guest.token, 'POST', `/v1/orgs/${home}/spaces`, 403, { title: 'Guest' });

      const patched = await call(owner.token, 'PATCH', `/v1/collections/${granting}`, { defaultLevel: 'read' });
      expect(patched.status).toBe(200);
      expect(patched.body.defaultLevel).toBe('read');

      const collections = await call(guest.token, 'GET', `/v1/orgs/${home}/collections`);
      expect(ids(collections).sort()).toEqual([granting, inner].sort());
      expect(collections.body.count).toBe(2);
      for (const item of collections.body.items) expect(item.permissions).toEqual(collectionPermissions('read'));
      const topOnly = await call(guest.token, 'GET', `/v1/orgs/${home}/collections?nested=false`);
      expect(ids(topOnly)).toEqual([granting]);
      expect(topOnly.body.count).toBe(1);

      const spaces = await call(guest.token, 'GET', `/v1/orgs/${home}/spaces`);
      expect(ids(spaces).sort()).toEqual([inheriting, deep].sort());
      expect(spaces.body.count).toBe(2);
      for (const item of spaces.body.items) expect(item.permissions).toEqual(spacePermissions('read'));

      const inside = await call(guest.token, 'GET', `/v1/collections/${granting}/spaces`);
      expect(ids(inside)).toEqual([inheriting]);
      expect(inside.body.count).toBe(1);

      const read = await call(guest.token, 'GET', `/v1/collections/${granting}`);
      expect(read.status).toBe(200);
      expect(read.body.permissions).toEqual(collectionPermissions('read'));
      expect((await call(guest.token, 'GET', `/v1/collections/${inner}`)).status).toBe(200);
      const space = await call(guest.token, 'GET', `/v1/spaces/${inheriting}`);
      expect(space.status).toBe(200);
      expect(space.body.permissions).toEqual(spacePermissions('read'));
      expect((await call(guest.token, 'GET', `/v1/spaces/${inheriting}/content/pages`)).status).toBe(200);
      expect((await call(guest.token, 'GET', `/v1/spaces/${deep}`)).status).toBe(200);

      // a space whose own level is null, and what the granting collection does not hold, stay hidden
      expectError(await call(guest.token, 'GET', `/v1/spaces/${shut}`), 404);
      expectError(await call(guest.token, 'GET', `/v1/spaces/${shut}/content`), 404);
      expectError(await call(guest.token, 'GET', `/v1/spaces/${top}`), 404);
      expectError(await call(guest.token, 'GET', `/v1/spaces/${elsewhere}`), 404);
      expectError(await call(guest.token, 'GET', `/v1/collections/${closed}`), 404);
      await refused(guest.token, 'PATCH', `/v1/spaces/${shut}`, 404, { title: 'Guest' });

      // read is not edit
      await refused(guest.token, 'PATCH', `/v1/spaces/${inheriting}`, 403, { title: 'Guest' });
      await refused(guest.token, 'POST', `/v1/orgs/${home}/spaces`, 403, { title: 'Guest', parent: granting });
      await refused(guest.token, 'DELETE', `/v1/collections/${granting}`, 403);
    });

    it('a guest may edit a space whose own level is edit, and nothing around it', async () => {
      const open = await inHome('spaces', { title: 'Open' });
      expect((await call(owner.token, 'PATCH', `/v1/spaces/${open}`, { defaultLevel: 'edit' })).status).toBe(200);
      const list = await call(guest.token, 'GET', `/v1/orgs/${home}/spaces`);
      expect(ids(list)).toContain(open);
      expect(list.body.count).toBe(list.body.items.length);
      const renamed = await call(guest.token, 'PATCH', `/v1/spaces/${open}`, { title: 'Opened by a guest' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.permissions).toEqual(spacePermissions('edit'));
      await refused(guest.token, 'PATCH', `/v1/spaces/${open}`, 403, { defaultLevel: 'admin' });
      await refused(guest.token, 'DELETE', `/v1/spaces/${open}`, 403);
    });

    it('a read member edits a space whose defaultLevel is edit', async () => {
      const plain = await inHome('spaces', { title: 'Plain' });
      const open = await inHome('spaces', { title: 'Open for editing' });
      expect((await call(owner.token, 'PATCH', `/v1/spaces/${open}`, { defaultLevel: 'edit' })).status).toBe(200);

      const before = await call(reader.token, 'GET', `/v1/spaces/${open}`);
      expect(before.body.permissions).toEqual(spacePermissions('edit'));
      expect(before.body.permissions).toMatchObject({ edit: true, admin: false, review: false });
      expect((await call(reader.token, 'GET', `/v1/spaces/${plain}`)).body.permissions).toEqual(
        spacePermissions('read'),
      );

      const renamed = await call(reader.token, 'PATCH', `/v1/spaces/${open}`, { title: 'Edited by a reader' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ title: 'Edited by a reader', defaultLevel: 'edit' });

      await refused(reader.token, 'PATCH', `/v1/spaces/${plain}`, 403, { title: 'No' });
      await refused(reader.token, 'PATCH', `/v1/spaces/${open}`, 403, { defaultLevel: 'admin' });
      await refused(reader.token, 'PATCH', `/v1/spaces/${open}`, 403, { editMode: 'locked' });
      await refused(reader.token, 'DELETE', `/v1/spaces/${open}`, 403);
      await refused(reader.token, 'POST', `/v1/spaces/${open}/duplicate`, 403);
    });

    it('a read member edits the spaces of a collection whose defaultLevel is edit, unless a space says otherwise', async () => {
      const editable = await inHome('collections', { title: 'Editable' });
      const patched = await call(owner.token, 'PATCH', `/v1/collections/${editable}`, { defaultLevel: 'edit' });
      expect(patched.body.defaultLevel).toBe('edit');
      const sub = await inHome('collections', { title: 'Sub', parent: editable });
      const inheriting = await inHome('spaces', { title: 'Inherits edit', parent: editable });
      const nested = await inHome('spaces', { title: 'Nested', parent: sub });
      const restricted = await inHome('spaces', { title: 'Own null', parent: editable });
      expect((await call(owner.token, 'PATCH', `/v1/spaces/${restricted}`, { defaultLevel: null })).status).toBe(200);
      const commenting = await inHome('spaces', { title: 'Own comment', parent: editable });
      expect((await call(owner.token, 'PATCH', `/v1/spaces/${commenting}`, { defaultLevel: 'comment' })).status).toBe(
        200,
      );

      const collection = await call(reader.token, 'GET', `/v1/collections/${editable}`);
      expect(collection.body.permissions).toEqual(collectionPermissions('edit'));

      const listed = await call(reader.token, 'GET', `/v1/collections/${editable}/spaces`);
      expect(listed.body.count).toBe(3);
      const permissions = Object.fromEntries(
        listed.body.items.map((item: { id: string; permissions: unknown }) => [item.id, item.permissions]),
      );
      expect(permissions).toEqual({
        [inheriting]: spacePermissions('edit'),
        [restricted]: spacePermissions('read'),
        [commenting]: spacePermissions('comment'),
      });

      for (const id of [inheriting, nested]) {
        const renamed = await call(reader.token, 'PATCH', `/v1/spaces/${id}`, { emoji: '1f4dd' });
        expect(renamed.status).toBe(200);
        expect(renamed.body.permissions).toMatchObject({ edit: true, admin: false });
      }
      await refused(reader.token, 'PATCH', `/v1/spaces/${restricted}`, 403, { title: 'No' });
      await refused(reader.token, 'PATCH', `/v1/spaces/${commenting}`, 403, { title: 'No' });
      // edit is not create nor admin
      await refused(reader.token, 'POST', `/v1/orgs/${home}/spaces`, 403, { title: 'No', parent: editable });
      await refused(reader.token, 'PATCH', `/v1/collections/${editable}`, 403, { title: 'No' });
      await refused(reader.token, 'DELETE', `/v1/spaces/${inheriting}`, 403);
    });

    it("the organization's defaultRole is the level in force where every level inherits", async () => {
      const org = (await call(owner.token, 'POST', '/v1/orgs', { title: 'Open house' })).body.id as string;
      await call(owner.token, 'POST', `/v1/orgs/${org}/invites`, { emails: ['guest@acme.test'], role: null });
      await call(owner.token, 'POST', `/v1/orgs/${org}/invites`, { emails: ['reader@acme.test'], role: 'read' });
      const collection = await make(`/v1/orgs/${org}/collections`, { title: 'Open collection' });
      const inCollection = await make(`/v1/orgs/${org}/spaces`, { title: 'In it', parent: collection });
      const top = await make(`/v1/orgs/${org}/spaces`, { title: 'Top' });
      const shut = await make(`/v1/orgs/${org}/spaces`, { title: 'Shut' });
      expect((await call(owner.token, 'PATCH', `/v1/spaces/${shut}`, { defaultLevel: null })).status).toBe(200);

      const patched = await call(owner.token, 'PATCH', `/v1/orgs/${org}`, { defaultRole: 'edit' });
      expect(patched.status).toBe(200);
      expect(patched.body.defaultRole).toBe('edit');

      for (const who of [guest, reader]) {
        const spaces = await call(who.token, 'GET', `/v1/orgs/${org}/spaces`);
        const expectedIds = who === guest ? [inCollection, top] : [inCollection, top, shut];
        expect(ids(spaces).sort()).toEqual(expectedIds.sort());
        expect(spaces.body.count).toBe(expectedIds.length);
        const collections = await call(who.token, 'GET', `/v1/orgs/${org}/collections`);
        expect(ids(collections)).toEqual([collection]);
        expect(collections.body.items[0].permissions).toEqual(collectionPermissions('edit'));
        for (const id of [inCollection, top]) {
          const renamed = await call(who.token, 'PATCH', `/v1/spaces/${id}`, { title: 'Edited by default' });
          expect(renamed.status).toBe(200);
          expect(renamed.body.permissions).toEqual(spacePermissions('edit'));
        }
        await refused(who.token, 'POST', `/v1/orgs/${org}/spaces`, 403, { title: 'No' });
        await refused(who.token, 'DELETE', `/v1/spaces/${top}`, 403);
      }
      // a space whose own level is null grants nothing: hidden from the guest, read only for the reader
      await refused(guest.token, 'PATCH', `/v1/spaces/${shut}`, 404, { title: 'No' });
      await refused(reader.token, 'PATCH', `/v1/spaces/${shut}`, 403, { title: 'No' });
      expect((await call(reader.token, 'GET', `/v1/spaces/${shut}`)).body.permissions).toEqual(
        spacePermissions('read'),
      );

      // a create default lets anyone create at the top level
      expect((await call(owner.token, 'PATCH', `/v1/orgs/${org}`, { defaultRole: 'create' })).status).toBe(200);
      for (const who of [guest, reader]) {
        const created = await call(who.token, 'POST', `/v1/orgs/${org}/spaces`, { title: 'By default' });
        expect(created.status).toBe(201);
        expect(created.body.permissions).toEqual(spacePermissions('create'));
      }
    });

    it('a collection granting create lets a read member create inside it, not at the top level', async () => {
      const workshop = await inHome('collections', { title: 'Workshop' });
      expect((await call(owner.token, 'PATCH', `/v1/collections/${workshop}`, { defaultLevel: 'create' })).status).toBe(
        200,
      );
      const created = await call(reader.token, 'POST', `/v1/orgs/${home}/spaces`, {
        title: 'Made by a reader',
        parent: workshop,
      });
      expect(created.status).toBe(201);
      expect(created.body.permissions).toEqual(spacePermissions('create'));
      const inner = await call(reader.token, 'POST', `/v1/orgs/${home}/collections`, {
        title: 'Reader collection',
        parent: workshop,
      });
      expect(inner.status).toBe(201);
      expect(inner.body.permissions).toEqual(collectionPermissions('create'));
      await refused(reader.token, 'POST', `/v1/orgs/${home}/spaces`, 403, { title: 'Top' });
      await refused(reader.token, 'POST', `/v1/orgs/${home}/collections`, 403, { title: 'Top' });
      await refused(reader.token, 'DELETE', `/v1/spaces/${created.body.id}`, 403);
    });
  });
});
