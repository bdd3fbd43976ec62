import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Response, TestService } from '../support/service';

/**
 * Webhook management over real HTTP on the embedded backends: the shape, the secret shown once and never stored
 * in clear, validation, access (organization admins only; another organization's webhook is 404) and the
 * deliveries list. Webhook paths are not in the official spec, so the conformance check has nothing to say here.
 */

type Account = { userId: string; token: string; organizationId: string };
type Caller = { userId: string; token: string };

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('subscriptions: webhooks', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let editor: Caller;
  let stranger: Caller;

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);
  const webhooks = (org = ada.organizationId) => `/v1/orgs/${org}/webhooks`;

  beforeAll(async () => {
    service = await TestService.start({ FETCH_ALLOWLIST: '127.0.0.1:9' });
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
    editor = await service.signUp('eve@example.com', { name: 'Eve' });
    stranger = await service.signUp('sam@example.com', { name: 'Sam' });
    const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, {
      emails: ['eve@example.com'],
      role: 'edit',
    });
    expect(invited.status).toBe(200);
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('creates a webhook, answering its secret once in the Standard Webhooks form', async () => {
    const response = await as(ada.token).post(webhooks(), {
      url: 'https://hooks.quire.invalid/quire',
      types: ['space.created', 'change_request.merged'],
    });
    expect(response.status).toBe(201);
    const { id, secret } = response.body;
    const location = `http://quire.test/v1/orgs/${ada.organizationId}/webhooks/${id}`;
    expect(response.body).toEqual({
      object: 'webhook',
      id: expect.any(String),
      url: 'https://hooks.quire.invalid/quire',
      types: ['space.created', 'change_request.merged'],
      active: true,
      status: 'active',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      urls: { location, deliveries: `${location}/deliveries` },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(response.headers.get('location')).toBe(location);
    expect(response.headers.get('etag')).toBe('"0"');

    const read = await as(ada.token).get(`${webhooks()}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...response.body, secret: undefined });
    expect(read.body).not.toHaveProperty('secret');
    const list = await as(ada.token).get(webhooks());
    expect(list.body.items.map((item: { id: string }) => item.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    // the secret is in no file of the data directory, in clear or as its base64 body
    await service.runtime.catchUp();
    const body = secret.slice('whsec_'.length);
    for (const file of filesUnder(service.config.dataDir)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(body)).toBe(false);
      expect(bytes.includes(Buffer.from(body, 'base64'))).toBe(false);
    }
  });

  it('takes every type when types is left out, and may be created inactive', async () => {
    const response = await as(ada.token).post(webhooks(), { url: 'https://hooks.quire.invalid/all', active: false });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ types: [], active: false, status: 'active' });
  });

  it('changes the address, types and active flag; fields left out keep their value', async () => {
    const { id } = (await as(ada.token).post(webhooks(), { url: 'https://hooks.quire.invalid/a' })).body;
    const path = `${webhooks()}/${id}`;
    const changed = await as(ada.token).patch(path, { active: false, types: ['space.updated'] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: 'https://hooks.quire.invalid/a',
      types: ['space.updated'],
      active: false,
    });
    expect(changed.body).not.toHaveProperty('secret');
    expect(changed.headers.get('etag')).toBe('"1"');
    await refused(
      () => service.call('PATCH', path, { token: ada.token, body: { active: true }, headers: { 'if-match': '"0"' } }),
      412,
    );
    const moved = await as(ada.token).patch(path, { url: 'https://other.quire.invalid/b' });
    expect(moved.body).toMatchObject({ url: 'https://other.quire.invalid/b', types: ['space.updated'], active: false });
  });

  it('deletes a webhook: gone from reads and lists; deleting again is 204', async () => {
    const { id } = (await as(ada.token).post(webhooks(), { url: 'https://hooks.quire.invalid/gone' })).body;
    expect((await as(ada.token).delete(`${webhooks()}/${id}`)).status).toBe(204);
    await refused(() => as(ada.token).get(`${webhooks()}/${id}`), 404);
    await refused(() => as(ada.token).get(`${webhooks()}/${id}/deliveries`), 404);
    const list = await as(ada.token).get(webhooks());
    expect(list.body.items.map((item: { id: string }) => item.id)).not.toContain(id);
    expect((await as(ada.token).delete(`${webhooks()}/${id}`)).status).toBe(204);
    await refused(() => as(ada.token).patch(`${webhooks()}/${id}`, { active: false }), 404);
  });

  it('refuses bad input with 400, appending nothing', async () => {
    const post = (body: unknown) => () => as(ada.token).post(webhooks(), body);
    await refused(post({}), 400, /url/);
    await refused(post({ url: 42 }), 400, /url/);
    await refused(post({ url: 'not an address' }), 400, /url: not a valid address/);
    await refused(post({ url: 'ftp://hooks.quire.invalid/' }), 400, /url: must be an https address/);
    await refused(post({ url: 'http://hooks.quire.invalid/' }), 400, /FETCH_ALLOWLIST/);
    await refused(post({ url: 'http://127.0.0.1:8080/' }), 400, /FETCH_ALLOWLIST/);
    await refused(post({ url: 'https://u:p@hooks.quire.invalid/' }), 400, /user name or password/);
    await refused(post({ url: `https://hooks.quire.invalid/${'a'.repeat(2048)}` }), 400, /url/);
    await refused(post({ url: 'https://hooks.quire.invalid/', types: 'space.created' }), 400, /types/);
    await refused(post({ url: 'https://hooks.quire.invalid/', types: ['Space'] }), 400, /not a public event type/);
    await refused(post({ url: 'https://hooks.quire.invalid/', types: ['space.exploded'] }), 400, /not a public event/);
    await refused(
      post({ url: 'https://hooks.quire.invalid/', types: ['space.created', 'space.created'] }),
      400,
      /more than once/,
    );
    await refused(post({ url: 'https://hooks.quire.invalid/', active: 'yes' }), 400, /active/);
    await refused(post({ url: 'https://hooks.quire.invalid/', secret: 'whsec_mine' }), 400, /secret/);
    const { id } = (await as(ada.token).post(webhooks(), { url: 'https://hooks.quire.invalid/r' })).body;
    const redeliver = (body: unknown) => () => as(ada.token).post(`${webhooks()}/${id}/redeliver`, body);
    await refused(redeliver({}), 400, /after/);
    await refused(redeliver({ after: -1 }), 400, /after/);
    await refused(redeliver({ after: '1.5' }), 400, /after/);
    await refused(() => as(ada.token).patch(`${webhooks()}/${id}`, { url: null }), 400, /url/);
  });

  it('accepts http only for a host:port listed in FETCH_ALLOWLIST', async () => {
    const response = await as(ada.token).post(webhooks(), { url: 'http://127.0.0.1:9/hook' });
    expect(response.status).toBe(201);
  });

  it('is for organization admins: a member gets 403, a stranger and another organization 404', async () => {
    const { id } = (await as(ada.token).post(webhooks(), { url: 'https://hooks.quire.invalid/x' })).body;
    const path = `${webhooks()}/${id}`;
    for (const caller of [editor]) {
      await refused(() => as(caller.token).get(webhooks()), 403);
      await refused(() => as(caller.token).post(webhooks(), { url: 'https://hooks.quire.invalid/' }), 403);
      await refused(() => as(caller.token).get(path), 403);
      await refused(() => as(caller.token).patch(path, { active: false }), 403);
      await refused(() => as(caller.token).delete(path), 403);
      await refused(() => as(caller.token).get(`${path}/deliveries`), 403);
      await refused(() => as(caller.token).post(`${path}/redeliver`, { after: 0 }), 403);
    }
    await refused(() => as(stranger.token).get(webhooks()), 404);
    await refused(() => as(stranger.token).get(path), 404);
    await refused(() => as(stranger.token).delete(path), 404);
    // bob administers his own organization, not ada's; and ada's webhook is not in bob's organization
    await refused(() => as(bob.token).get(path), 404);
    await refused(() => as(bob.token).get(`${webhooks(bob.organizationId)}/${id}`), 404);
    await refused(() => as(bob.token).patch(`${webhooks(bob.organizationId)}/${id}`, { active: false }), 404);
    await refused(() => as(bob.token).delete(`${webhooks(bob.organizationId)}/${id}`), 404);
    await refused(() => as(bob.token).get(`${webhooks(bob.organizationId)}/${id}/deliveries`), 404);
    await refused(() => as(bob.token).post(`${webhooks(bob.organizationId)}/${id}/redeliver`, { after: 0 }), 404);
  });

  it('lists webhooks in pages', async () => {
    for (let i = 0; i < 3; i++)
      await as(bob.token).post(webhooks(bob.organizationId), { url: `https://h.quire.invalid/${i}` });
    const first = await as(bob.token).get(`${webhooks(bob.organizationId)}?limit=2`);
    expect(first.body).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    expect(first.body.items).toHaveLength(2);
    const second = await as(bob.token).get(`${webhooks(bob.organizationId)}?limit=2&page=${first.body.next.page}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
  });

  it('accepts a redelivery request (202); the attempts it makes are listed, newest first', async () => {
    const { id } = (await as(ada.token).post(webhooks(), { url: 'https://hooks.quire.invalid/r2' })).body;
    expect((await as(ada.token).get(`${webhooks()}/${id}/deliveries`)).body).toEqual({ items: [], count: 0 });
    // after 0: everything the organization did, also before the webhook existed (a backfill)
    const accepted = await as(ada.token).post(`${webhooks()}/${id}/redeliver`, { after: '0' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ object: 'webhook-redelivery', webhookId: id, after: '0' });
    let deliveries: Response = await as(ada.token).get(`${webhooks()}/${id}/deliveries`);
    for (let i = 0; i < 200 && deliveries.body.count === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      deliveries = await as(ada.token).get(`${webhooks()}/${id}/deliveries`);
    }
    // a .invalid host is never found: the attempt failed without an answer, and is retried later
    expect(deliveries.body.items[0]).toMatchObject({
      object: 'webhook-delivery',
      attempt: 1,
      statusCode: null,
      response: null,
      error: expect.stringContaining('hooks.quire.invalid'),
    });
  });
});
