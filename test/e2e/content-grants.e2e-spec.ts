import { requestProjectionRebuild } from '@app/kernel';
import { type Response, TestService, expectError } from '../support/service';

type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
const ROLES: Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };
const atLeast = (role: Role, required: Role) => RANK[role] >= RANK[required];

/** The Space `permissions` a caller with `role` should be shown (written out here, not imported). */
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

type Account = { userId: string; token: string; organizationId: string };

const ids = (list: Response) => list.body.items.map((item: { id: string }) => item.id);

/**
 * Sharing spaces and collections with users and teams over real HTTP: a grant feeds the access policy like an
 * organization role (the strongest role wins, a collection grant reaches everything inside), guests see exactly
 * what was shared with them, lists included, and taking a grant or a team membership away ends access at once.
 */
describe('grants on spaces and collections (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let outsider: Account;
  /** Members without a role in the organization. */
  let guest: Account;
  let teamGuest: Account;
  /** Members with a role. */
  let reader: Account;
  let editor: Account;
  let team: string;

  const org = () => owner.organizationId;
  const as = (account: { token: string }) => service.as(account.token);

  async function make(path: string, body: Record<string, unknown>): Promise<string> {
    const created = await as(owner).post(path, body);
    expect(created.status).toBe(201);
    return created.body.id;
  }
  const newSpace = (title: string, parent?: string) =>
    make(`/v1/orgs/${org()}/spaces`, { title, ...(parent ? { parent } : {}) });
  const newCollection = (title: string, parent?: string) =>
    make(`/v1/orgs/${org()}/collections`, { title, ...(parent ? { parent } : {}) });
  async function share(path: string, body: Record<string, unknown>) {
    const response = await as(owner).post(`${path}/permissions`, body);
    expect(response.status).toBe(204);
  }

  beforeAll(async () => {
    service = await TestService.start();
    owner = await service.signUp('owner@grants.test', { name: 'Owner', org: 'Grants Inc' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    const join = async (email: string, role: string | null) => {
      const account = await service.signUp(email, { name: email.split('@')[0] });
      expect((await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: [email], role })).status).toBe(200);
      return account;
    };
    guest = await join('guest@grants.test', null);
    teamGuest = await join('team-guest@grants.test', null);
    reader = await join('reader@grants.test', 'read');
    editor = await join('editor@grants.test', 'edit');
    const created = await as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'Guests', members: [teamGuest.userId] });
    team = created.body.id;
  }, 30_000);

  afterAll(async () => {
    await service?.stop();
  });

  it('shows a guest exactly the space shared with them, in lists too, with the role given', async () => {
    const shared = await newSpace('Shared with the guest');
    const other = await newSpace('Not shared');
    expectError(await as(guest).get(`/v1/spaces/${shared}`), 404);
    expect((await as(guest).get(`/v1/orgs/${org()}/spaces`)).body.count).toBe(0);

    await share(`/v1/spaces/${shared}`, { users: [guest.userId], role: 'edit' });
    const got = await as(guest).get(`/v1/spaces/${shared}`);
    expect(got.status).toBe(200);
    expect(got.body.permissions).toMatchObject({ view: true, edit: true, review: false, admin: false });
    expectError(await as(guest).get(`/v1/spaces/${other}`), 404);
    const list = await as(guest).get(`/v1/orgs/${org()}/spaces`);
    expect(ids(list)).toEqual([shared]);
    expect(list.body.count).toBe(1);
    expect(list.body.items[0].permissions.edit).toBe(true);
    expect((await as(guest).get(`/v1/orgs/${org()}/collections`)).body.count).toBe(0);

    // the guest acts with the role given: edit, not share
    expect((await as(guest).patch(`/v1/spaces/${shared}`, { title: 'Edited by the guest' })).status).toBe(200);
    await service.refused(
      () => as(guest).post(`/v1/spaces/${shared}/permissions`, { users: [reader.userId], role: 'read' }),
      403,
    );

    const users = await as(owner).get(`/v1/spaces/${shared}/permissions/users`);
    expect(users.status).toBe(200);
    expect(users.body).toMatchObject({ count: 1, items: [{ permission: 'edit', user: { id: guest.userId } }] });

    // taking it away ends access as soon as the DELETE answers
    expect((await as(owner).delete(`/v1/spaces/${shared}/permissions/users/${guest.userId}`)).status).toBe(204);
    expectError(await as(guest).get(`/v1/spaces/${shared}`), 404);
    expect((await as(guest).get(`/v1/orgs/${org()}/spaces`)).body.count).toBe(0);
    expect((await as(owner).delete(`/v1/spaces/${shared}/permissions/users/${guest.userId}`)).status).toBe(204);
  });

  it('lets a collection grant reach the spaces and collections inside it, however deep', async () => {
    const top = await newCollection('Top');
    const inner = await newCollection('Inner', top);
    const deep = await newSpace('Deep', inner);
    const direct = await newSpace('Direct', top);
    const outside = await newSpace('Outside');
    await share(`/v1/collections/${top}`, { users: [guest.userId], role: 'comment' });

    const deepSpace = await as(guest).get(`/v1/spaces/${deep}`);
    expect(deepSpace.status).toBe(200);
    expect(deepSpace.body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    expect((await as(guest).get(`/v1/collections/${inner}`)).status).toBe(200);
    expectError(await as(guest).get(`/v1/spaces/${outside}`), 404);

    const spaces = await as(guest).get(`/v1/orgs/${org()}/spaces`);
    expect(ids(spaces).sort()).toEqual([deep, direct].sort());
    expect(spaces.body.count).toBe(2);
    const collections = await as(guest).get(`/v1/orgs/${org()}/collections`);
    expect(ids(collections).sort()).toEqual([top, inner].sort());
    expect(ids(await as(guest).get(`/v1/collections/${inner}/spaces`))).toEqual([deep]);

    // a stronger grant deeper down wins there, and only there
    await share(`/v1/spaces/${deep}`, { users: [guest.userId], role: 'review' });
    expect((await as(guest).get(`/v1/spaces/${deep}`)).body.permissions.review).toBe(true);
    expect((await as(guest).get(`/v1/spaces/${direct}`)).body.permissions.review).toBe(false);
    const listed = await as(guest).get(`/v1/orgs/${org()}/spaces`);
    const byId = new Map(listed.body.items.map((s: { id: string; permissions: unknown }) => [s.id, s.permissions]));
    expect(byId.get(deep)).toMatchObject({ review: true });
    expect(byId.get(direct)).toMatchObject({ review: false, comment: true });

    expect((await as(owner).delete(`/v1/collections/${top}/permissions/users/${guest.userId}`)).status).toBe(204);
    expectError(await as(guest).get(`/v1/spaces/${direct}`), 404);
    expect(ids(await as(guest).get(`/v1/orgs/${org()}/spaces`))).toEqual([deep]);
    await as(owner).delete(`/v1/spaces/${deep}/permissions/users/${guest.userId}`);
  });

  it('gives the strongest of organization role, default levels and grants', async () => {
    const space = await newSpace('Strongest');
    await share(`/v1/spaces/${space}`, { users: [reader.userId, editor.userId], role: 'review' });
    expect((await as(reader).get(`/v1/spaces/${space}`)).body.permissions).toMatchObject({
      review: true,
      admin: false,
    });
    await share(`/v1/spaces/${space}`, { users: [editor.userId], role: 'comment' });
    // the editor's organization role is stronger than the comment grant
    expect((await as(editor).get(`/v1/spaces/${space}`)).body.permissions).toMatchObject({ edit: true, review: false });
    // a team grant and a user grant: the stronger one counts
    await share(`/v1/spaces/${space}`, { users: [teamGuest.userId], role: 'read' });
    await share(`/v1/spaces/${space}`, { teams: [team], role: 'edit' });
    expect((await as(teamGuest).get(`/v1/spaces/${space}`)).body.permissions).toMatchObject({ edit: true });
    expect((await as(owner).patch(`/v1/spaces/${space}/permissions/teams/${team}`, { role: 'comment' })).status).toBe(
      204,
    );
    expect((await as(teamGuest).get(`/v1/spaces/${space}`)).body.permissions).toMatchObject({
      view: true,
      comment: true,
      edit: false,
    });
  });

  it('reaches team members, and ends when they leave the team or the team is deleted', async () => {
    const space = await newSpace('For the team');
    const created = await as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'Temporary', members: [guest.userId] });
    const temporary = created.body.id;
    await share(`/v1/spaces/${space}`, { teams: [temporary], role: 'read' });
    expect((await as(guest).get(`/v1/spaces/${space}`)).status).toBe(200);
    expect(ids(await as(guest).get(`/v1/orgs/${org()}/spaces`))).toContain(space);
    expect((await as(owner).get(`/v1/orgs/${org()}/teams/${temporary}`)).body.spaces).toBe(1);
    const teams = await as(owner).get(`/v1/spaces/${space}/permissions/teams`);
    expect(teams.status).toBe(200);
    expect(teams.body.items).toEqual([
      { permission: 'read', team: expect.objectContaining({ id: temporary, object: 'team', spaces: 1 }) },
    ]);

    expect((await as(owner).delete(`/v1/orgs/${org()}/teams/${temporary}/members/${guest.userId}`)).status).toBe(204);
    expectError(await as(guest).get(`/v1/spaces/${space}`), 404);
    expect(ids(await as(guest).get(`/v1/orgs/${org()}/spaces`))).not.toContain(space);

    await as(owner).put(`/v1/orgs/${org()}/teams/${temporary}/members/${guest.userId}`);
    expect((await as(guest).get(`/v1/spaces/${space}`)).status).toBe(200);
    expect((await as(owner).delete(`/v1/orgs/${org()}/teams/${temporary}`)).status).toBe(204);
    expectError(await as(guest).get(`/v1/spaces/${space}`), 404);
    // a process then withdraws what was shared with the deleted team
    await service.runtime.processes.waitFor(await service.events.headPosition());
    await service.runtime.catchUp();
    expect((await as(owner).get(`/v1/spaces/${space}/permissions/teams`)).body).toEqual({ items: [], count: 0 });
  });

  it('lets only admins of the object share it; others are refused and nothing is appended', async () => {
    const space = await newSpace('Guarded');
    const collection = await newCollection('Guarded collection');
    const body = { users: [guest.userId], role: 'read' };
    await service.refused(() => as(editor).post(`/v1/spaces/${space}/permissions`, body), 403);
    await service.refused(() => as(reader).post(`/v1/collections/${collection}/permissions`, body), 403);
    await service.refused(() => as(guest).post(`/v1/spaces/${space}/permissions`, body), 404);
    await service.refused(() => as(outsider).post(`/v1/spaces/${space}/permissions`, body), 404);
    await service.refused(() => as(outsider).post(`/v1/collections/${collection}/permissions`, body), 404);
    expectError(await as(outsider).get(`/v1/spaces/${space}/permissions/users`), 404);
    expectError(await as(outsider).get(`/v1/collections/${collection}/permissions/teams`), 404);
    await service.refused(() => as(outsider).delete(`/v1/spaces/${space}/permissions/users/${guest.userId}`), 404);
    await service.refused(
      () => as(editor).patch(`/v1/spaces/${space}/permissions/users/${guest.userId}`, { role: 'edit' }),
      403,
    );
    // a member given admin on the space may share it
    await share(`/v1/spaces/${space}`, { users: [editor.userId], role: 'admin' });
    expect((await as(editor).post(`/v1/spaces/${space}/permissions`, body)).status).toBe(204);
    expect((await as(guest).get(`/v1/spaces/${space}`)).status).toBe(200);
    // readers of the space may see with whom it is shared, a guest given less than admin may not
    expect((await as(reader).get(`/v1/spaces/${space}/permissions/users`)).body.count).toBe(2);
    expectError(await as(guest).get(`/v1/spaces/${space}/permissions/users`), 403);
    expectError(await as(guest).get(`/v1/spaces/${space}/permissions/teams`), 403);
  });

  it('refuses bad input with 400 and appends nothing', async () => {
    const space = await newSpace('Bad input');
    const collection = await newCollection('Bad input');
    const post = (body: unknown) => () => as(owner).post(`/v1/spaces/${space}/permissions`, body);
    await service.refused(post({ role: 'read' }), 400, /users or teams/);
    await service.refused(post({ users: [guest.userId] }), 400, /role/);
    await service.refused(post({ users: [guest.userId], role: null }), 400, /role/);
    await service.refused(post({ users: [guest.userId], role: 'boss' }), 400, /role/);
    await service.refused(post({ users: [], role: 'read' }), 400, /users/);
    await service.refused(post({ users: [guest.userId], role: 'read', extra: true }), 400, /extra/);
    await service.refused(post({ users: [outsider.userId], role: 'read' }), 400, /members/);
    await service.refused(post({ teams: ['no-such-team'], role: 'read' }), 400, /no-such-team/);
    await service.refused(
      () => as(owner).post(`/v1/collections/${collection}/permissions`, { teams: [team], role: 'read', users: 'x' }),
      400,
      /users/,
    );
    await service.refused(
      () => as(owner).patch(`/v1/spaces/${space}/permissions/users/${guest.userId}`, { role: 'edit' }),
      404,
      /no access granted/,
    );
    await service.refused(() => as(owner).patch(`/v1/spaces/${space}/permissions/teams/${team}`, {}), 400, /role/);
    await service.refused(() => as(owner).get(`/v1/spaces/${space}/permissions/users?limit=5000`), 400, /limit/);
  });

  it('lists users and teams of a collection with the spec shapes', async () => {
    const collection = await newCollection('Listed');
    await share(`/v1/collections/${collection}`, { users: [guest.userId, reader.userId], teams: [team], role: 'read' });
    const users = await as(owner).get(`/v1/collections/${collection}/permissions/users?limit=1`);
    expect(users.body.count).toBe(2);
    expect(users.body.items).toHaveLength(1);
    expect(users.body.next).toBeDefined();
    const rest = await as(owner).get(
      `/v1/collections/${collection}/permissions/users?page=${encodeURIComponent(users.body.next.page)}`,
    );
    expect(rest.body.items).toHaveLength(1);
    const teams = await as(owner).get(`/v1/collections/${collection}/permissions/teams`);
    expect(teams.body.items.map((item: { team: { id: string } }) => item.team.id)).toEqual([team]);
    expect(
      (await as(owner).patch(`/v1/collections/${collection}/permissions/users/${guest.userId}`, { role: 'edit' }))
        .status,
    ).toBe(204);
    expect((await as(owner).delete(`/v1/collections/${collection}/permissions/teams/${team}`)).status).toBe(204);
    expect((await as(owner).get(`/v1/collections/${collection}/permissions/teams`)).body.count).toBe(0);
  });

  it('leaves grants behind when a space moves to another organization', async () => {
    const space = await newSpace('Moving');
    await share(`/v1/spaces/${space}`, { users: [guest.userId, reader.userId], role: 'edit' });
    const elsewhere = (await as(owner).post('/v1/orgs', { title: 'Grants Elsewhere' })).body.id;
    await as(owner).post(`/v1/orgs/${elsewhere}/invites`, { emails: ['reader@grants.test'], role: null });
    expect((await as(owner).post(`/v1/spaces/${space}/transfer`, { organization: elsewhere })).status).toBe(200);
    expectError(await as(guest).get(`/v1/spaces/${space}`), 404);
    expectError(await as(reader).get(`/v1/spaces/${space}`), 404);
    expect((await as(owner).get(`/v1/spaces/${space}/permissions/users`)).body).toEqual({ items: [], count: 0 });
    // shared again in its new organization, with the same person
    await share(`/v1/spaces/${space}`, { users: [reader.userId], role: 'comment' });
    expect((await as(reader).get(`/v1/spaces/${space}`)).body.permissions).toMatchObject({
      comment: true,
      edit: false,
    });
    expect((await as(owner).get(`/v1/spaces/${space}/permissions/users`)).body.count).toBe(1);
  });

  describe('role matrix: a guest given each role through a team', () => {
    for (const role of ROLES) {
      it(`${role}: sees the space and only it, and may do exactly what ${role} allows`, async () => {
        const person = await service.signUp(`matrix-${role}@grants.test`, { name: `Matrix ${role}` });
        await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: [`matrix-${role}@grants.test`], role: null });
        const created = await as(owner).put(`/v1/orgs/${org()}/teams`, {
          title: `Matrix ${role}`,
          members: [person.userId],
        });
        const space = await newSpace(`Matrix ${role}`);
        await share(`/v1/spaces/${space}`, { teams: [created.body.id], role });

        const got = await as(person).get(`/v1/spaces/${space}`);
        expect(got.status).toBe(200);
        expect(got.body.permissions).toEqual(spacePermissions(role));
        const list = await as(person).get(`/v1/orgs/${org()}/spaces`);
        expect(ids(list)).toEqual([space]);
        expect(list.body.items[0].permissions).toEqual(spacePermissions(role));

        const rename = () => as(person).patch(`/v1/spaces/${space}`, { title: `Renamed by ${role}` });
        if (atLeast(role, 'edit')) expect((await rename()).status).toBe(200);
        else await service.refused(rename, 403);
        const lock = () => as(person).patch(`/v1/spaces/${space}`, { editMode: 'locked' });
        const shareIt = () =>
          as(person).post(`/v1/spaces/${space}/permissions`, { users: [person.userId], role: 'read' });
        if (role === 'admin') {
          expect((await lock()).status).toBe(200);
          expect((await shareIt()).status).toBe(204);
        } else {
          await service.refused(lock, 403);
          await service.refused(shareIt, 403);
        }
        // the organization itself stays out of reach: a guest creates nothing at its top level
        await service.refused(() => as(person).post(`/v1/orgs/${org()}/spaces`, { title: 'Not allowed' }), 403);
      });
    }
  });

  it('rebuilds the grant, team and member read models to the same access', async () => {
    const top = await newCollection('Rebuilt');
    const inside = await newSpace('Rebuilt inside', top);
    await share(`/v1/collections/${top}`, { teams: [team], role: 'edit' });
    const before = {
      spaces: (await as(teamGuest).get(`/v1/orgs/${org()}/spaces`)).body,
      space: (await as(teamGuest).get(`/v1/spaces/${inside}`)).body,
      team: (await as(owner).get(`/v1/orgs/${org()}/teams/${team}`)).body,
      teams: (await as(owner).get(`/v1/collections/${top}/permissions/teams`)).body,
    };
    const position = await requestProjectionRebuild(
      service.events,
      service.clock,
      ['content_grants', 'grantee_grants', 'teams', 'team_members', 'members'],
      'test',
    );
    await service.runtime.settle(position);
    await service.runtime.catchUp();
    expect((await as(teamGuest).get(`/v1/orgs/${org()}/spaces`)).body).toEqual(before.spaces);
    expect((await as(teamGuest).get(`/v1/spaces/${inside}`)).body).toEqual(before.space);
    expect((await as(owner).get(`/v1/orgs/${org()}/teams/${team}`)).body).toEqual(before.team);
    expect((await as(owner).get(`/v1/collections/${top}/permissions/teams`)).body).toEqual(before.teams);
  });
});
