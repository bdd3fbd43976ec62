import { join } from 'node:path';
import { SqliteReadStore } from '@app/read-store';
import { GetOrganizationHandler } from '../../libs/identity/src/application/get-organization/get-organization.query';
import { GetChangeRequestHandler } from '../../libs/review/src/application/get-change-request/get-change-request.query';
import { RATE_LIMITED_TO_THREE, TestService, expectError } from '../support/service';

/**
 * Kept responses (libs/kernel/src/http/kept-responses.ts): a GET whose route says its answer may be kept is
 * answered again, before Nest routes it, while the read store has not changed. These tests count the query
 * handler's runs to tell a kept answer from a made one, and check that nothing a write changes is ever answered
 * from a kept response afterwards.
 */
describe('kept responses (e2e)', () => {
  let service: TestService;
  let ada: { userId: string; token: string; organizationId: string };
  let made: jest.SpyInstance;
  const org = () => `/v1/orgs/${ada.organizationId}`;

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@kept.example', { name: 'Ada', org: 'Kept Org' });
    made = jest.spyOn(service.app.get(GetOrganizationHandler), 'execute');
  });

  afterAll(async () => {
    made.mockRestore();
    await service?.stop();
  });

  /** GETs `path` and tells how many times the organization's query ran for it. */
  const getCounting = async (path: string, token = ada.token) => {
    const before = made.mock.calls.length;
    const response = await service.as(token).get(path);
    return { response, runs: made.mock.calls.length - before };
  };

  it('answers the same GET again from the kept response: same body and headers, its own request id', async () => {
    const first = await getCounting(org());
    const second = await getCounting(org());
    expect(first.runs).toBe(1);
    expect(first.response.status).toBe(200);
    expect(second.runs).toBe(0);
    expect(second.response.status).toBe(200);
    expect(second.response.body).toEqual(first.response.body);
    for (const header of ['etag', 'content-type', 'content-security-policy', 'cache-control', 'x-frame-options']) {
      expect(second.response.headers.get(header)).toBe(first.response.headers.get(header));
    }
    expect(second.response.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(second.response.headers.get('x-request-id')).not.toBe(first.response.headers.get('x-request-id'));
    const asked = await service.call('GET', org(), { token: ada.token, headers: { 'x-request-id': 'mine-1' } });
    expect(asked.headers.get('x-request-id')).toBe('mine-1');
  });

  it('makes the answer again after a write, and never answers the old one', async () => {
    await getCounting(org());
    expect((await service.as(ada.token).patch(org(), { title: 'Kept Org, renamed' })).status).toBe(200);
    const after = await getCounting(org());
    expect(after.runs).toBe(1);
    expect(after.response.body.title).toBe('Kept Org, renamed');
    expect((await getCounting(org())).runs).toBe(0);
  });

  it("keeps each caller's answer apart: another caller gets their own, a stranger a 404", async () => {
    await getCounting(org());
    const stranger = await service.signUp('stranger@kept.example', { name: 'Stranger' });
    const refused = await getCounting(org(), stranger.token);
    expect(refused.runs).toBe(1);
    expectError(refused.response, 404);
    expectError((await getCounting(org(), stranger.token)).response, 404);
    // someone else's token, presented with another spelling of the scheme, is another key altogether
    const other = await service.call('GET', org(), { headers: { authorization: `bearer ${ada.token}` } });
    expect(other.status).toBe(200);
    expectError(await service.call('GET', org()), 401);
  });

  it('refuses a revoked token at once, though an answer for it was kept', async () => {
    const created = await service.as(ada.token).post('/v1/user/tokens', { label: 'short-lived' });
    const token: string = created.body.token;
    expect((await getCounting(org(), token)).response.status).toBe(200);
    expect((await getCounting(org(), token)).runs).toBe(0);
    expect((await service.as(ada.token).delete(`/v1/user/tokens/${created.body.id}`)).status).toBe(204);
    expectError((await getCounting(org(), token)).response, 401, /revoked/);
  });

  it('answers a member whose role changed with the new role at once', async () => {
    const carol = await service.signUp('carol@kept.example', { name: 'Carol' });
    await service.as(ada.token).post(`${org()}/invites`, { emails: ['carol@kept.example'], role: 'read' });
    expect((await getCounting(org(), carol.token)).response.body.permissions.admin).toBe(false);
    expect((await getCounting(org(), carol.token)).runs).toBe(0);
    const promoted = await service.as(ada.token).patch(`${org()}/members/${carol.userId}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect((await getCounting(org(), carol.token)).response.body.permissions.admin).toBe(true);
    expect((await service.as(ada.token).delete(`${org()}/members/${carol.userId}`)).status).toBe(204);
    expectError((await getCounting(org(), carol.token)).response, 404);
  });

  it('makes the answer again after another connection to the read store commits', async () => {
    await getCounting(org());
    expect((await getCounting(org())).runs).toBe(0);
    const other = new SqliteReadStore({ file: join(service.config.dataDir, 'read.sqlite') });
    try {
      await other.write([
        { kind: 'put', collection: 'unrelated', doc: { id: 'x', note: 'another connection' }, position: 1n },
      ]);
    } finally {
      await other.close();
    }
    expect((await getCounting(org())).runs).toBe(1);
  });

  it('shows a person whose key was destroyed as erased at once in a kept change request', async () => {
    const bob = await service.signUp('bob@kept.example', { name: 'Bob Keptman' });
    await service.as(ada.token).post(`${org()}/invites`, { emails: ['bob@kept.example'], role: 'admin' });
    const space = await service.as(bob.token).post(`${org()}/spaces`, { title: 'Reviewed' });
    const created = await service.as(bob.token).post(`/v1/spaces/${space.body.id}/change-requests`, { subject: 'S' });
    expect(created.status).toBe(201);
    const path = `/v1/spaces/${space.body.id}/change-requests/${created.body.id}`;
    const handler = jest.spyOn(service.app.get(GetChangeRequestHandler), 'execute');
    try {
      const first = await service.as(ada.token).get(path);
      expect(first.body.createdBy.displayName).toBe('Bob Keptman');
      expect((await service.as(ada.token).get(path)).body).toEqual(first.body);
      expect(handler).toHaveBeenCalledTimes(1);
      // the key alone goes (no document changes): what was opened with it must not be shown again
      await service.keys.destroy(`user:${bob.userId}`);
      const after = await service.as(ada.token).get(path);
      expect(handler).toHaveBeenCalledTimes(2);
      expect(after.body.createdBy.displayName).not.toBe('Bob Keptman');
      expect(JSON.stringify(after.body)).not.toContain('bob@kept.example');
    } finally {
      handler.mockRestore();
    }
  });

  it('keeps nothing the route did not say it may keep: a point in time, HEAD, an error', async () => {
    const at = `${org()}?at=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    expect((await getCounting(at)).runs).toBe(1);
    expect((await getCounting(at)).runs).toBe(1);
    await getCounting(org());
    const before = made.mock.calls.length;
    const head = await fetch(service.url + org(), {
      method: 'HEAD',
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(head.status).toBe(200);
    expect(made.mock.calls.length - before).toBe(1);
    expectError((await getCounting('/v1/orgs/nope')).response, 404);
    expect((await getCounting('/v1/orgs/nope')).runs).toBe(1);
  });
});

describe('kept responses under the rate limiter (e2e)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start(RATE_LIMITED_TO_THREE);
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('counts a kept answer against the allowance and gives it fresh rate-limit headers', async () => {
    const ada = await service.signUp('ada@limited.example', { name: 'Ada', org: 'Limited Org' });
    const made = jest.spyOn(service.app.get(GetOrganizationHandler), 'execute');
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await service.as(ada.token).get(`/v1/orgs/${ada.organizationId}`));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(made).toHaveBeenCalledTimes(1);
      expect(answers.slice(0, 3).map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    } finally {
      made.mockRestore();
    }
  });
});
