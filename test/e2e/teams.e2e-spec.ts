import { GitBookAPI, TeamMemberRole } from '@gitbook/api';
import { TestService, expectError } from '../support/service';

type Account = { userId: string; token: string; organizationId: string };

/**
 * Teams of an organization over real HTTP: who may create, rename, delete and fill them, guests as members, the
 * counts a team and a member show, and the official client.
 */
describe('teams (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let reader: Account;
  let guest: Account;
  let outsider: Account;

  const org = () => owner.organizationId;
  const as = (account: { token: string }) => service.as(account.token);

  beforeAll(async () => {
    service = await TestService.start();
    owner = await service.signUp('owner@teams.test', { name: 'Owner', org: 'Teams Inc' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    reader = await service.signUp('reader@teams.test', { name: 'Reader' });
    guest = await service.signUp('guest@teams.test', { name: 'Guest' });
    for (const [email, role] of [
      ['reader@teams.test', 'read'],
      ['guest@teams.test', null],
    ]) {
      const invited = await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: [email], role });
      expect(invited.status).toBe(200);
    }
  });

  afterAll(async () => {
    await service?.stop();
  });

  async function newTeam(title: string, members: string[] = []): Promise<string> {
    const created = await as(owner).put(`/v1/orgs/${org()}/teams`, { title, members });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it('creates a team with members (a guest among them) and shows it with its counts', async () => {
    const created = await as(owner).put(`/v1/orgs/${org()}/teams`, {
      title: 'Writers',
      members: [reader.userId, guest.userId],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`http://quire.test/v1/orgs/${org()}/teams/${created.body.id}`);
    expect(created.body).toEqual({
      object: 'team',
      id: expect.any(String),
      title: 'Writers',
      members: 2,
      spaces: 0,
      createdAt: expect.any(String),
      permissions: { admin: true, view: true },
    });
    const got = await as(reader).get(`/v1/orgs/${org()}/teams/${created.body.id}`);
    expect(got.body).toMatchObject({ title: 'Writers', members: 2, permissions: { admin: false, view: true } });

    const members = await as(owner).get(`/v1/orgs/${org()}/teams/${created.body.id}/members`);
    expect(members.status).toBe(200);
    expect(members.body.count).toBe(2);
    expect(members.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          organization: expect.objectContaining({ id: reader.userId, role: 'read' }),
          team: { role: 'member' },
        }),
        expect.objectContaining({
          organization: expect.objectContaining({ id: guest.userId, role: null }),
          team: { role: 'member' },
        }),
      ]),
    );
    const member = await as(owner).get(`/v1/orgs/${org()}/members/${guest.userId}`);
    expect(member.body.teams).toBe(1);
  });

  it('refuses bad input with 400 and appends nothing', async () => {
    await service.refused(() => as(owner).put(`/v1/orgs/${org()}/teams`, {}), 400, /title/);
    await service.refused(() => as(owner).put(`/v1/orgs/${org()}/teams`, { title: '' }), 400, /title/);
    await service.refused(() => as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'x'.repeat(65) }), 400, /title/);
    await service.refused(() => as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'T', extra: 1 }), 400, /extra/);
    await service.refused(
      () => as(owner).put(`/v1/orgs/${org()}/teams`, { title: 'T', members: [outsider.userId] }),
      400,
      /not members/,
    );
    const team = await newTeam('Bad input');
    await service.refused(() => as(owner).patch(`/v1/orgs/${org()}/teams/${team}`, {}), 400, /title/);
    await service.refused(
      () =>
        as(owner).put(`/v1/orgs/${org()}/teams/${team}/members`, {
          memberships: { [reader.userId]: { role: 'boss' } },
        }),
      400,
      /memberships/,
    );
    await service.refused(
      () => as(owner).put(`/v1/orgs/${org()}/teams/${team}/members`, { add: ['nobody@teams.test'] }),
      400,
      /nobody@teams.test/,
    );
    await service.refused(
      () => as(owner).put(`/v1/orgs/${org()}/teams/${team}/members/${reader.userId}`, { role: 'boss' }),
      400,
      /role/,
    );
    await service.refused(() => as(owner).get(`/v1/orgs/${org()}/teams?limit=1001`), 400, /limit/);
  });

  it('lets only admins create and delete teams; admins and owners rename and fill them', async () => {
    const team = await newTeam('Owned', [reader.userId]);
    await service.refused(() => as(reader).put(`/v1/orgs/${org()}/teams`, { title: 'Mine' }), 403);
    await service.refused(() => as(reader).patch(`/v1/orgs/${org()}/teams/${team}`, { title: 'Renamed' }), 403);
    await service.refused(() => as(reader).put(`/v1/orgs/${org()}/teams/${team}/members/${guest.userId}`), 403);
    await service.refused(() => as(reader).delete(`/v1/orgs/${org()}/teams/${team}`), 403);

    // made an owner, the reader manages the team (but still cannot delete it)
    expect(
      (await as(owner).put(`/v1/orgs/${org()}/teams/${team}/members/${reader.userId}`, { role: 'owner' })).status,
    ).toBe(204);
    const renamed = await as(reader).patch(`/v1/orgs/${org()}/teams/${team}`, { title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Renamed', permissions: { admin: true, view: true } });
    expect(
      (await as(reader).put(`/v1/orgs/${org()}/teams/${team}/members`, { add: ['guest@teams.test'] })).status,
    ).toBe(204);
    expect((await as(owner).get(`/v1/orgs/${org()}/teams/${team}`)).body.members).toBe(2);
    await service.refused(() => as(reader).delete(`/v1/orgs/${org()}/teams/${team}`), 403);

    const owned = await as(owner).get(`/v1/orgs/${org()}/teams?owner=${reader.userId}`);
    expect(owned.body.items.map((t: { id: string }) => t.id)).toEqual([team]);
    const byTitle = await as(owner).get(`/v1/orgs/${org()}/teams?title=RENAM`);
    expect(byTitle.body.items.map((t: { id: string }) => t.id)).toEqual([team]);

    expect((await as(owner).delete(`/v1/orgs/${org()}/teams/${team}`)).status).toBe(204);
    expectError(await as(owner).get(`/v1/orgs/${org()}/teams/${team}`), 404);
    expect((await as(owner).delete(`/v1/orgs/${org()}/teams/${team}`)).status).toBe(204);
    const member = await as(owner).get(`/v1/orgs/${org()}/members/${reader.userId}/teams`);
    expect(member.body.items.map((i: { team: { id: string } }) => i.team.id)).not.toContain(team);
  });

  it('adds, re-roles and removes members in one PUT; a member may leave a team', async () => {
    const team = await newTeam('Batch', [guest.userId]);
    const put = await as(owner).put(`/v1/orgs/${org()}/teams/${team}/members`, {
      add: [reader.userId],
      remove: [guest.userId],
      memberships: { [owner.userId]: { role: 'owner' } },
    });
    expect(put.status).toBe(204);
    const members = await as(owner).get(`/v1/orgs/${org()}/teams/${team}/members`);
    expect(
      members.body.items.map((m: { organization: { id: string }; team: { role: string } }) => [
        m.organization.id,
        m.team.role,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [reader.userId, 'member'],
        [owner.userId, 'owner'],
      ]),
    );
    expect(members.body.count).toBe(2);
    expect((await as(reader).delete(`/v1/orgs/${org()}/teams/${team}/members/${reader.userId}`)).status).toBe(204);
    expect((await as(owner).get(`/v1/orgs/${org()}/teams/${team}`)).body.members).toBe(1);
    // removing someone not in the team is a no-op
    expect((await as(owner).delete(`/v1/orgs/${org()}/teams/${team}/members/${reader.userId}`)).status).toBe(204);
  });

  it('lists teams for members with a role; guests see only the teams they are in', async () => {
    const mine = await newTeam('Guest team', [guest.userId]);
    const other = await newTeam('Not the guest');
    const list = await as(reader).get(`/v1/orgs/${org()}/teams`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(list.body.items.length);
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([mine, other]));
    await service.refused(() => as(guest).get(`/v1/orgs/${org()}/teams`), 403);
    expect((await as(guest).get(`/v1/orgs/${org()}/teams/${mine}`)).status).toBe(200);
    expectError(await as(guest).get(`/v1/orgs/${org()}/teams/${other}`), 404);
    const own = await as(guest).get(`/v1/orgs/${org()}/members/${guest.userId}/teams`);
    expect(own.status).toBe(200);
    expect(own.body.items.map((i: { team: { id: string } }) => i.team.id)).toContain(mine);
    expect(own.body.items.every((i: { member: { role: string } }) => i.member.role === 'member')).toBe(true);
    await service.refused(() => as(guest).get(`/v1/orgs/${org()}/members/${reader.userId}/teams`), 403);
    const organization = await as(guest).get(`/v1/orgs/${org()}`);
    expect(organization.body.permissions).toMatchObject({ listTeams: false, ownTeam: false });
    expect((await as(owner).get(`/v1/orgs/${org()}`)).body.permissions).toMatchObject({
      listTeams: true,
      ownTeam: true,
    });
  });

  it('takes a member who leaves the organization out of its teams', async () => {
    const leaver = await service.signUp('leaver@teams.test', { name: 'Leaver' });
    await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: ['leaver@teams.test'], role: 'edit' });
    const team = await newTeam('Leavers', [leaver.userId]);
    expect((await as(owner).delete(`/v1/orgs/${org()}/members/${leaver.userId}`)).status).toBe(204);
    expect((await as(owner).get(`/v1/orgs/${org()}/teams/${team}`)).body.members).toBe(0);
    expect((await as(owner).get(`/v1/orgs/${org()}/teams/${team}/members`)).body.items).toEqual([]);
  });

  it("answers another organization's teams as not found", async () => {
    const team = await newTeam('Private');
    expectError(await as(outsider).get(`/v1/orgs/${org()}/teams`), 404);
    expectError(await as(outsider).get(`/v1/orgs/${org()}/teams/${team}`), 404);
    await service.refused(() => as(outsider).put(`/v1/orgs/${org()}/teams`, { title: 'Mine' }), 404);
    await service.refused(() => as(outsider).delete(`/v1/orgs/${org()}/teams/${team}`), 404);
    await service.refused(() => as(outsider).put(`/v1/orgs/${org()}/teams/${team}/members/${outsider.userId}`), 404);
    // a team id from another organization is unknown here
    expectError(await as(outsider).get(`/v1/orgs/${outsider.organizationId}/teams/${team}`), 404);
    await service.refused(
      () => as(outsider).patch(`/v1/orgs/${outsider.organizationId}/teams/${team}`, { title: 'Stolen' }),
      404,
    );
  });

  it('works through the official client', async () => {
    const api = new GitBookAPI({ authToken: owner.token, endpoint: service.url });
    const created = await api.orgs.createOrganizationTeam(org(), { title: 'Client team', members: [reader.userId] });
    expect(created.data.members).toBe(1);
    await api.orgs.updateMembersInOrganizationTeam(org(), created.data.id, { add: [guest.userId] });
    await api.orgs.addMemberToOrganizationTeamById(org(), created.data.id, reader.userId, {
      role: TeamMemberRole.Owner,
    });
    const members = await api.orgs.listTeamMembersInOrganizationById(org(), created.data.id);
    expect(members.data.items.map((m) => m.team.role).sort()).toEqual(['member', 'owner']);
    const renamed = await api.orgs.updateTeamInOrganizationById(org(), created.data.id, { title: 'Renamed by client' });
    expect(renamed.data.title).toBe('Renamed by client');
    const teams = await api.orgs.listTeamsInOrganizationById(org(), { title: 'by client' });
    expect(teams.data.items.map((t) => t.id)).toEqual([created.data.id]);
    const ofMember = await api.orgs.listTeamsForOrganizationMember(org(), reader.userId);
    expect(ofMember.data.items.map((i) => i.team.id)).toContain(created.data.id);
    await api.orgs.deleteMemberFromOrganizationTeamById(org(), created.data.id, guest.userId);
    await api.orgs.removeTeamFromOrganizationById(org(), created.data.id);
    await expect(api.orgs.getTeamInOrganizationById(org(), created.data.id)).rejects.toMatchObject({ code: 404 });
  });
});
