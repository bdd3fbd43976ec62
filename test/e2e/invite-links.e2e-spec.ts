import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GitBookAPI, MemberRole } from '@gitbook/api';
import { requestProjectionRebuild } from '@app/kernel';
import { type Response, TestService, expectError } from '../support/service';

type Account = { userId: string; token: string; organizationId: string };

const ids = (list: Response) => list.body.items.map((item: { id: string }) => item.id);

/**
 * Invite links over real HTTP: admins make them while the organization allows it; whoever holds a link's id
 * (its secret) reads it and accepts it, joining with its role or getting its level on a space or collection,
 * never losing a stronger role; the secret is in no event.
 */
describe('invite links (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let reader: Account;
  let outsider: Account;
  let counter = 0;

  const org = () => owner.organizationId;
  const as = (account: { token: string }) => service.as(account.token);
  const links = () => `/v1/orgs/${org()}/link-invites`;

  async function create(body: Record<string, unknown>): Promise<string> {
    const created = await as(owner).post(links(), body);
    expect(created.status).toBe(201);
    return created.body.id;
  }
  async function newcomer(): Promise<Account> {
    counter += 1;
    return service.signUp(`newcomer${counter}@links.test`, { name: `Newcomer ${counter}` });
  }
  const accept = (account: { token: string }, secret: string) =>
    as(account).post(`/v1/orgs/${org()}/invites/${secret}`);
  const roleOf = async (userId: string) => (await as(owner).get(`/v1/orgs/${org()}/members/${userId}`)).body.role;

  beforeAll(async () => {
    service = await TestService.start();
    owner = await service.signUp('owner@links.test', { name: 'Owner', org: 'Links Inc' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    reader = await service.signUp('reader@links.test', { name: 'Reader' });
    await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: ['reader@links.test'], role: 'read' });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('needs inviteLinks on the organization (409 otherwise) and appends nothing', async () => {
    await service.refused(() => as(owner).get(links()), 409, /turned off/);
    await service.refused(() => as(owner).post(links(), { role: 'read' }), 409, /turned off/);
    expect((await as(owner).patch(`/v1/orgs/${org()}`, { inviteLinks: true })).status).toBe(200);
    expect((await as(owner).get(links())).status).toBe(200);
  });

  it('creates a link whose id is a secret of 128+ random bits, kept out of the events', async () => {
    const created = await as(owner).post(links(), { role: 'edit' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true });
    const secret: string = created.body.id;
    expect(secret).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(secret).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(16);
    const events = JSON.stringify((await service.events.readAll()).map((event) => [event.data, event.metadata]));
    expect(events).not.toContain(secret);
    // nor in any file of the data directory (event store, read models)
    for (const entry of readdirSync(service.config.dataDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) expect(readFileSync(join(entry.parentPath, entry.name)).includes(secret)).toBe(false);
    }
    // the list shows the link by another id (its hash), which cannot be used to join
    const list = await as(owner).get(links());
    expect(list.body.items).toHaveLength(list.body.count);
    expect(ids(list)).not.toContain(secret);
    const listed = list.body.items.find((item: { role: string }) => item.role === 'edit');
    expect(listed).toMatchObject({ object: 'invite', role: 'edit', redundant: true });
    expect((await as(owner).get(`${links()}/${listed.id}`)).body).toMatchObject({ role: 'edit' });
    const stranger = await newcomer();
    expectError(await as(stranger).get(`${links()}/${listed.id}`), 404);
    await service.refused(() => accept(stranger, listed.id), 404);
  });

  it('lets anyone holding the link read it and join with its role', async () => {
    const secret = await create({ role: 'edit' });
    const person = await newcomer();
    const read = await as(person).get(`${links()}/${secret}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ object: 'invite', id: secret, role: 'edit', redundant: false });
    const accepted = await accept(person, secret);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    expect(await roleOf(person.userId)).toBe('edit');
    expect((await as(person).get(`/v1/orgs/${org()}`)).status).toBe(200);
    expect((await as(person).get(`${links()}/${secret}`)).body.redundant).toBe(true);
    // accepting again changes nothing
    const before = await service.eventCount();
    expect((await accept(person, secret)).status).toBe(200);
    expect(await service.eventCount()).toBe(before);
    expectError(await service.call('POST', `/v1/orgs/${org()}/invites/${secret}`), 401);
  });

  it('raises a role but never lowers one; a guest link makes a guest', async () => {
    const weak = await create({ role: 'comment' });
    expect((await accept(reader, weak)).status).toBe(200);
    expect(await roleOf(reader.userId)).toBe('comment');
    const weaker = await create({ role: 'read' });
    expect((await as(reader).get(`${links()}/${weaker}`)).body.redundant).toBe(true);
    expect((await accept(reader, weaker)).status).toBe(200);
    expect(await roleOf(reader.userId)).toBe('comment');
    expect((await accept(owner, weaker)).status).toBe(200);
    expect(await roleOf(owner.userId)).toBe('admin');

    const guestLink = await create({ role: null });
    const guest = await newcomer();
    expect((await as(guest).get(`${links()}/${guestLink}`)).body).toMatchObject({ role: null, redundant: false });
    expect((await accept(guest, guestLink)).status).toBe(200);
    expect(await roleOf(guest.userId)).toBeNull();
    expect((await as(reader).get(`${links()}/${guestLink}`)).body.redundant).toBe(true);
  });

  it('gives the level on a space or a collection (and what is inside) to whoever accepts', async () => {
    const space = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Invited space' })).body.id;
    const other = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Other space' })).body.id;
    const secret = await create({ level: 'comment', space });
    const person = await newcomer();
    const read = await as(person).get(`${links()}/${secret}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ object: 'invite', id: secret, level: 'comment', redundant: false });
    expect(read.body.space).toMatchObject({ object: 'space', id: space });
    expect((await accept(person, secret)).status).toBe(200);
    expect(await roleOf(person.userId)).toBeNull();
    const got = await as(person).get(`/v1/spaces/${space}`);
    expect(got.body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    expectError(await as(person).get(`/v1/spaces/${other}`), 404);
    expect(ids(await as(person).get(`/v1/orgs/${org()}/spaces`))).toEqual([space]);
    expect((await as(person).get(`${links()}/${secret}`)).body.redundant).toBe(true);

    // a weaker content link does not lower the grant; a member with a stronger role gets nothing new
    const weaker = await create({ level: 'read', space });
    expect((await accept(person, weaker)).status).toBe(200);
    expect((await as(person).get(`/v1/spaces/${space}`)).body.permissions.comment).toBe(true);
    const before = await service.eventCount();
    const editorLink = await create({ role: 'edit' });
    const after = await service.eventCount();
    expect(after).toBe(before + 1);
    expect((await accept(reader, weaker)).status).toBe(200);
    expect(await service.eventCount()).toBe(after);
    void editorLink;

    const collection = (await as(owner).post(`/v1/orgs/${org()}/collections`, { title: 'Invited collection' })).body.id;
    const inside = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Inside', parent: collection })).body.id;
    const collectionLink = await create({ level: 'edit', collection });
    const another = await newcomer();
    const seen = await as(another).get(`${links()}/${collectionLink}`);
    expect(seen.body).toMatchObject({ level: 'edit', redundant: false, collection: { id: collection } });
    expect((await accept(another, collectionLink)).status).toBe(200);
    expect((await as(another).get(`/v1/spaces/${inside}`)).body.permissions.edit).toBe(true);
    expect(ids(await as(another).get(`/v1/orgs/${org()}/spaces`))).toEqual([inside]);
  });

  it('changes and deletes links (admins); a deleted link cannot be read or accepted', async () => {
    const secret = await create({ role: 'read' });
    const changed = await as(owner).patch(`${links()}/${secret}`, { role: 'review' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ object: 'invite', id: secret, role: 'review', redundant: true });
    await service.refused(() => as(owner).patch(`${links()}/${secret}`, { level: 'edit' }), 400, /role/);
    await service.refused(() => as(owner).patch(`${links()}/${secret}`, {}), 400, /role/);
    await service.refused(() => as(owner).patch(`${links()}/${secret}`, { role: 'read', level: 'read' }), 400);
    await service.refused(() => as(owner).patch(`${links()}/no-such-link`, { role: 'read' }), 404);

    const space = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Level change' })).body.id;
    const spaceLink = await create({ level: 'read', space });
    const levelled = await as(owner).patch(`${links()}/${spaceLink}`, { level: 'edit' });
    expect(levelled.body).toMatchObject({ level: 'edit', space: { id: space } });
    await service.refused(() => as(owner).patch(`${links()}/${spaceLink}`, { role: 'edit' }), 400, /level/);

    expect((await as(owner).delete(`${links()}/${secret}`)).status).toBe(204);
    const person = await newcomer();
    expectError(await as(person).get(`${links()}/${secret}`), 404);
    await service.refused(() => accept(person, secret), 404);
    expect((await as(owner).delete(`${links()}/${secret}`)).status).toBe(204);
  });

  it('refuses bad input with 400 and appends nothing', async () => {
    const space = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Bad input' })).body.id;
    const outsiderSpace = (await as(outsider).post(`/v1/orgs/${outsider.organizationId}/spaces`, { title: 'Theirs' }))
      .body.id;
    const post = (body: unknown) => () => as(owner).post(links(), body);
    await service.refused(post({}), 400, /role/);
    await service.refused(post({ role: 'boss' }), 400, /role/);
    await service.refused(post({ role: 'edit', level: 'read' }), 400);
    await service.refused(post({ level: 'read' }), 400);
    await service.refused(post({ level: 'read', space, collection: 'c' }), 400);
    await service.refused(post({ level: null, space }), 400);
    await service.refused(post({ level: 'boss', space }), 400, /level/);
    await service.refused(post({ level: 'read', space: 'no-such-space' }), 400, /no-such-space/);
    await service.refused(post({ level: 'read', space: outsiderSpace }), 400, /not a space of this organization/);
    await service.refused(post({ role: 'read', extra: 1 }), 400, /extra/);
  });

  it('keeps links to admins: others are refused, other organizations see nothing', async () => {
    const secret = await create({ role: 'read' });
    await service.refused(() => as(reader).get(links()), 403);
    await service.refused(() => as(reader).post(links(), { role: 'read' }), 403);
    await service.refused(() => as(reader).patch(`${links()}/${secret}`, { role: 'edit' }), 403);
    await service.refused(() => as(reader).delete(`${links()}/${secret}`), 403);
    await service.refused(() => as(outsider).get(links()), 404);
    await service.refused(() => as(outsider).post(links(), { role: 'read' }), 404);
    await service.refused(() => as(outsider).delete(`${links()}/${secret}`), 404);
    // a link of one organization is unknown under another
    expectError(await as(outsider).get(`/v1/orgs/${outsider.organizationId}/link-invites/${secret}`), 404);
    await service.refused(() => as(outsider).post(`/v1/orgs/${outsider.organizationId}/invites/${secret}`), 404);
    // turned off, links stop working for holders too
    const person = await newcomer();
    await as(owner).patch(`/v1/orgs/${org()}`, { inviteLinks: false });
    await service.refused(() => accept(person, secret), 409);
    await as(owner).patch(`/v1/orgs/${org()}`, { inviteLinks: true });
    expect((await accept(person, secret)).status).toBe(200);
  });

  it('works through the official client', async () => {
    const admin = new GitBookAPI({ authToken: owner.token, endpoint: service.url });
    const created = await admin.orgs.createOrganizationInvite(org(), { role: MemberRole.Review });
    const secret = created.data.id;
    expect(created.data).toMatchObject({ object: 'invite', role: 'review' });
    const updated = await admin.orgs.updateOrganizationInviteById(org(), secret, { role: MemberRole.Edit });
    expect(updated.data).toMatchObject({ role: 'edit' });
    const list = await admin.orgs.listOrganizationInviteLinks(org());
    expect(list.data.items.some((item) => item.role === 'edit')).toBe(true);

    const person = await newcomer();
    const client = new GitBookAPI({ authToken: person.token, endpoint: service.url });
    const read = await client.orgs.getOrganizationInviteLink(org(), secret);
    expect(read.data.redundant).toBe(false);
    await client.orgs.joinOrganizationWithInvite(org(), secret);
    expect((await client.orgs.getOrganizationInviteLink(org(), secret)).data.redundant).toBe(true);
    expect(await roleOf(person.userId)).toBe('edit');

    await admin.orgs.deleteOrganizationInviteById(org(), secret);
    await expect(client.orgs.joinOrganizationWithInvite(org(), secret)).rejects.toMatchObject({ code: 404 });
  });

  it('rebuilds the invite links read model to the same links', async () => {
    const secret = await create({ role: 'comment' });
    const before = (await as(owner).get(links())).body;
    const position = await requestProjectionRebuild(service.events, service.clock, ['invite_links'], 'test');
    await service.runtime.settle(position);
    expect((await as(owner).get(links())).body).toEqual(before);
    expect((await as(reader).get(`${links()}/${secret}`)).body).toMatchObject({ role: 'comment', redundant: true });
  });
});
