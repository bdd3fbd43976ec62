import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EventStore, START } from '@app/kernel';
import { loadConfig } from '../../apps/api/src/config';
import { TestService, expectError } from '../support/service';

/**
 * Personal data and erasure, end to end on the embedded backends: names, addresses and token labels are never
 * written in clear to any file under DATA_DIR, and an erased person reads as "Erased user" everywhere they
 * appeared, also after the read models are replayed from the events.
 */

const NAME = 'Zelda Quillfeather-Xyzzy';
const EMAIL = 'zelda.quillfeather-xyzzy@erasure.example';
/** What must be found in no file: the name, the address, and the surname in any case. */
const NEEDLES = [NAME, EMAIL, 'quillfeather'];

/** Every file under a folder, as bytes (SQLite databases with their -wal and -shm files, blobs, secrets). */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return [{ path, bytes: readFileSync(path) }];
  });
}

/** The files (relative to DATA_DIR) holding any needle, as UTF-8 or, for the last ones, in any letter case. */
function filesHolding(dir: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const { path, bytes } of filesUnder(dir)) {
    const lower = bytes.toString('latin1').toLowerCase();
    const hits = needles.filter(
      (needle) => bytes.includes(Buffer.from(needle, 'utf8')) || lower.includes(needle.toLowerCase()),
    );
    if (hits.length > 0) found.push(`${path.slice(dir.length + 1)}: ${hits.join(', ')}`);
  }
  return found;
}

describe('personal data and erasure (e2e)', () => {
  let service: TestService;
  let admin: { userId: string; token: string; organizationId: string };
  let zelda: { userId: string; token: string };
  let secondToken: string;
  let spaceId: string;
  let commentId: string;
  let changeRequestId: string;
  let teamId: string;
  let sideOrg: string;

  const as = (token: string) => service.as(token);
  const org = () => admin.organizationId;

  beforeAll(async () => {
    service = await TestService.start();
    admin = await service.signUp('admin@erasure.example', { name: 'Admin', org: 'Erasure Org' });
    // invited before she has an account: the pending invite is sealed with the address's own key
    const invited = await as(admin.token).post(`/v1/orgs/${org()}/invites`, { emails: [EMAIL], role: 'edit' });
    expect(invited.status).toBe(200);
    const signedUp = await service.signUp(EMAIL, { name: NAME });
    zelda = { userId: signedUp.userId, token: signedUp.token };
    await service.runtime.processes.waitFor(await service.events.headPosition());
    await service.runtime.catchUp();
  });

  afterAll(async () => {
    const dir = service?.config.dataDir;
    await service?.stop(false);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lets the person act: member (through the pending invite), team, grant, comment, change request, token', async () => {
    const members = await as(admin.token).get(`/v1/orgs/${org()}/members?search=quillfeather`);
    expect(members.body).toMatchObject({
      count: 1,
      items: [{ id: zelda.userId, role: 'edit', user: { displayName: NAME, email: EMAIL } }],
    });
    expect((await as(zelda.token).get('/v1/user')).body).toMatchObject({ displayName: NAME, email: EMAIL });

    const team = await as(admin.token).put(`/v1/orgs/${org()}/teams`, { title: 'Writers', members: [EMAIL] });
    expect(team.status).toBe(201);
    teamId = team.body.id;
    spaceId = (await as(admin.token).post(`/v1/orgs/${org()}/spaces`, { title: 'Handbook' })).body.id;
    const shared = await as(admin.token).post(`/v1/spaces/${spaceId}/permissions`, {
      users: [zelda.userId],
      role: 'review',
    });
    expect(shared.status).toBe(204);

    service.clock.advance(1000);
    const comment = await as(zelda.token).post(`/v1/spaces/${spaceId}/comments`, {
      body: { markdown: 'A remark with no name in it.' },
    });
    expect(comment.status).toBe(200);
    expect(comment.body.postedBy).toMatchObject({ id: zelda.userId, displayName: NAME, email: EMAIL });
    commentId = comment.body.id;
    const request = await as(zelda.token).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Typos' });
    expect(request.status).toBe(201);
    changeRequestId = request.body.id;
    expect(request.body.createdBy).toMatchObject({ id: zelda.userId, displayName: NAME });
    const written = await as(zelda.token).post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`, {
      changes: [
        { operation: 'insert_page', title: 'Notes', document: { markdown: 'Plain notes.' } },
        {
          operation: 'insert_files',
          files: [{ name: 'notes.txt', base64: Buffer.from('stored as a blob').toString('base64') }],
        },
      ],
    });
    expect(written.status).toBe(200);

    const token = await as(zelda.token).post('/v1/user/tokens', { label: `${NAME}'s laptop` });
    expect(token.status).toBe(201);
    secondToken = token.body.token;
    expect((await as(secondToken).get('/v1/user/tokens')).body.items).toContainEqual(
      expect.objectContaining({ label: `${NAME}'s laptop` }),
    );

    sideOrg = (await as(zelda.token).post('/v1/orgs', { title: 'Side Project' })).body.id;
  });

  it('never writes the name or the address in clear, in any file (events, read models, index, keys, blobs)', async () => {
    await service.runtime.catchUp();
    expect(filesHolding(service.config.dataDir, NEEDLES)).toEqual([]);
    // the file list includes every store: a grep of nothing would prove nothing
    const names = filesUnder(service.config.dataDir).map(({ path }) => path.slice(service.config.dataDir.length + 1));
    expect(names).toEqual(expect.arrayContaining(['events.sqlite', 'read.sqlite', 'search.sqlite', 'keys.sqlite']));
    expect(names.filter((name) => name.endsWith('-wal')).length).toBeGreaterThan(0);
    expect(names.some((name) => name.startsWith('blobs/'))).toBe(true);
    // and the grep finds what is stored in clear (the organization's title): it is not blind
    expect(filesHolding(service.config.dataDir, ['Erasure Org']).length).toBeGreaterThan(0);
  });

  it('keeps the keys in a private file of their own unless KEY_STORE (or READ_STORE) says mongodb', async () => {
    expect(service.config.keyStore).toEqual({ driver: 'sqlite', file: join(service.config.dataDir, 'keys.sqlite') });
    expect(statSync(join(service.config.dataDir, 'keys.sqlite')).mode & 0o777).toBe(0o600);
    const base = { DATA_DIR: service.config.dataDir, CURSOR_SECRET: 'x'.repeat(32) };
    const mongo = { driver: 'mongodb', url: 'mongodb://db:27017/q' };
    expect(loadConfig({ ...base, KEY_STORE: 'mongodb', MONGODB_URL: mongo.url }).keyStore).toEqual(mongo);
    expect(loadConfig({ ...base, READ_STORE: 'mongodb', MONGODB_URL: mongo.url }).keyStore).toEqual(mongo);
    expect(
      loadConfig({ ...base, READ_STORE: 'mongodb', KEY_STORE: 'sqlite', MONGODB_URL: mongo.url }).keyStore,
    ).toEqual({
      driver: 'sqlite',
      file: join(service.config.dataDir, 'keys.sqlite'),
    });
    expect(() => loadConfig({ ...base, KEY_STORE: 'mongodb' })).toThrow(/MONGODB_URL/);
    expect(() => loadConfig({ ...base, KEY_STORE: 'vault' })).toThrow(/KEY_STORE/);
    const health = await service.call('GET', '/health');
    expect(health.body).toMatchObject({ status: 'ok', checks: { keyStore: 'up' } });
  });

  it('refuses the erasure (409, nothing recorded) while she is the last admin of an organization', async () => {
    const before = await service.eventCount();
    const refused = await as(zelda.token).delete('/v1/user');
    expectError(refused, 409, new RegExp(`last admin of organization ${sideOrg} \\(Side Project\\)`));
    expect(await service.eventCount()).toBe(before);
    expect((await as(zelda.token).get('/v1/user')).status).toBe(200);
    expect(await service.keys.get(`user:${zelda.userId}`)).toBeDefined();
  });

  it('erases her: 204, her tokens stop working at once, and she shows as erased wherever she appeared', async () => {
    const key = (await service.keys.get(`user:${zelda.userId}`))!;
    const invited = await as(zelda.token).post(`/v1/orgs/${sideOrg}/invites`, {
      emails: ['admin@erasure.example'],
      role: 'admin',
    });
    expect(invited.status).toBe(200);

    const erased = await as(zelda.token).delete('/v1/user');
    expect(erased.status).toBe(204);
    expectError(await as(zelda.token).get('/v1/user'), 401, /revoked/);
    expectError(await as(secondToken).get('/v1/user'), 401, /revoked/);
    expect(await service.keys.get(`user:${zelda.userId}`)).toBeUndefined();

    await expectShownAsErased();

    // the key itself is gone from the key store's file
    await service.runtime.catchUp();
    expect(filesUnder(service.config.dataDir).some(({ bytes }) => bytes.includes(key))).toBe(false);
  });

  /** What an erased person looks like in every answer that showed her. */
  async function expectShownAsErased() {
    const erasedUser = {
      object: 'user',
      id: zelda.userId,
      displayName: 'Erased user',
      urls: { location: `http://quire.test/v1/users/${zelda.userId}` },
    };
    const members = await as(admin.token).get(`/v1/orgs/${org()}/members`);
    expect(members.body.items.map((member: { id: string }) => member.id)).toEqual([admin.userId]);
    expect((await as(admin.token).get(`/v1/orgs/${org()}/members?search=quillfeather`)).body.count).toBe(0);
    expectError(await as(admin.token).get(`/v1/orgs/${org()}/members/${zelda.userId}`), 404);
    expect((await as(admin.token).get(`/v1/orgs/${org()}/teams/${teamId}`)).body.members).toBe(0);
    // she left the side organization, which the other admin keeps
    expect((await as(admin.token).get(`/v1/orgs/${sideOrg}/members`)).body.count).toBe(1);

    const comment = await as(admin.token).get(`/v1/spaces/${spaceId}/comments/${commentId}`);
    expect(comment.status).toBe(200);
    expect(comment.body.postedBy).toEqual(erasedUser);
    const request = await as(admin.token).get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
    expect(request.body.createdBy).toEqual(erasedUser);
    // her grant is kept (it gives nothing to someone outside the organization) and names her as erased
    const grants = await as(admin.token).get(`/v1/spaces/${spaceId}/permissions/users`);
    expect(grants.body.items).toEqual([expect.objectContaining({ user: erasedUser })]);
  }

  it('keeps no trace of her name or address in any file, -wal files included', async () => {
    await service.runtime.catchUp();
    expect(filesHolding(service.config.dataDir, NEEDLES)).toEqual([]);
  });

  it('shows her as erased after a rebuild of the read models from the events', async () => {
    for (const name of ['users', 'members', 'team_members', 'api-tokens'])
      await service.runtime.projections.rebuild(name);
    await expectShownAsErased();
  });

  it('shows the same after a replay from nothing (read store and search index deleted), with no trace in any file', async () => {
    const dir = service.config.dataDir;
    await service.stop(false);
    for (const name of readdirSync(dir)) {
      if (name.startsWith('read.sqlite') || name.startsWith('search.sqlite')) rmSync(join(dir, name));
    }
    service = await TestService.start({}, dir);
    await service.runtime.catchUp();
    await expectShownAsErased();
    expect(filesHolding(dir, NEEDLES)).toEqual([]);
  });

  it('frees her address: invitations to it wait for the next person who signs up with it, a new one', async () => {
    const invited = await as(admin.token).post(`/v1/orgs/${org()}/invites`, { emails: [EMAIL], role: 'read' });
    expect(invited.status).toBe(200);
    const again = await service.signUp(EMAIL, { name: 'Somebody New' });
    expect(again.userId).not.toBe(zelda.userId);
    await service.runtime.processes.waitFor(await service.events.headPosition());
    await service.runtime.catchUp();
    expect((await as(again.token).get('/v1/user')).body).toMatchObject({ displayName: 'Somebody New', email: EMAIL });
    const members = await as(admin.token).get(`/v1/orgs/${org()}/members?search=${encodeURIComponent(EMAIL)}`);
    expect(members.body.items).toEqual([expect.objectContaining({ id: again.userId, role: 'read' })]);
  });

  it('lets an admin remove the grant an erased person still holds', async () => {
    const path = `/v1/spaces/${spaceId}/permissions/users`;
    expect((await as(admin.token).delete(`${path}/${zelda.userId}`)).status).toBe(204);
    expect((await as(admin.token).get(path)).body.count).toBe(0);
  });
});

describe('people recorded before personal data was sealed (e2e)', () => {
  let service: TestService;

  afterAll(async () => {
    await service?.stop();
  });

  /** Appends what an older version recorded for a user: clear address and name, a member of `organizationId`. */
  async function legacyUser(events: EventStore, organizationId: string, email: string, name: string) {
    const userId = `legacy${randomUUID().replace(/-/g, '').slice(0, 14)}`;
    const { emailKey, hashToken } = await import('../../libs/identity/src/application/tokens');
    const now = new Date().toISOString();
    await events.append(
      `email-${emailKey(email)}`,
      [{ id: randomUUID(), type: 'EmailClaimed', data: { email, userId, claimedAt: now } }],
      'no_stream',
    );
    const token = `quire_legacy${randomUUID()}`;
    await events.append(
      `user-${userId}`,
      [
        { id: randomUUID(), type: 'UserCreated', data: { userId, email, displayName: name, createdAt: now } },
        {
          id: randomUUID(),
          type: 'ApiTokenCreated',
          data: { userId, tokenId: 't1', label: 'old laptop', tokenHash: hashToken(token), createdAt: now },
        },
      ],
      'no_stream',
    );
    const stream = `organization-${organizationId}`;
    const revision = (await events.readStream(stream)).length - 1;
    await events.append(
      stream,
      [
        {
          id: randomUUID(),
          type: 'MemberJoined',
          data: { organizationId, userId, email, displayName: name, role: 'read', joinedAt: now },
        },
      ],
      revision,
    );
    return { userId, token };
  }

  it('reads them as before through the upcaster, erases them from every answer, and says what stays', async () => {
    service = await TestService.start();
    const admin = await service.signUp('owner@legacy.example', { name: 'Owner', org: 'Legacy Org' });
    const old = await legacyUser(service.events, admin.organizationId, 'old.timer@legacy.example', 'Old Timer');
    await service.runtime.catchUp();

    const me = await service.as(old.token).get('/v1/user');
    expect(me.body).toMatchObject({ id: old.userId, displayName: 'Old Timer', email: 'old.timer@legacy.example' });
    expect((await service.as(old.token).get('/v1/user/tokens')).body.items[0].label).toBe('old laptop');
    const found = await service.as(admin.token).get(`/v1/orgs/${admin.organizationId}/members?search=timer`);
    expect(found.body.items).toEqual([
      expect.objectContaining({ id: old.userId, user: expect.objectContaining({ displayName: 'Old Timer' }) }),
    ]);

    expect((await service.as(old.token).delete('/v1/user')).status).toBe(204);
    expectError(await service.as(old.token).get('/v1/user'), 401);
    expect((await service.as(admin.token).get(`/v1/orgs/${admin.organizationId}/members`)).body.count).toBe(1);
    await service.runtime.projections.rebuild('users');
    const users = await service.reads.get('users', old.userId);
    expect(users).toEqual({
      id: old.userId,
      createdAt: expect.any(String),
      revision: expect.any(Number),
      erased: true,
    });

    // Honest limit: events recorded before sealing keep their clear text in the event store (it is append-only).
    const events = await service.events.readAll({ after: START });
    const clear = events.filter((event) => JSON.stringify(event.data).includes('old.timer@legacy.example'));
    expect(clear.map((event) => event.type).sort()).toEqual(['EmailClaimed', 'MemberJoined', 'UserCreated']);
    // and the address is released, so it can sign up again as a new person
    const again = await service.signUp('old.timer@legacy.example', { name: 'Renewed' });
    expect(again.userId).not.toBe(old.userId);
  });
});
