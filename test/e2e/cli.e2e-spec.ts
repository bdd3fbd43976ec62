import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SqliteReadStore } from '@app/read-store';
import { TestService } from '../support/service';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/**
 * The operator CLI as a separate process against the data directory of a running server (the build in dist/ is
 * made by `npm test` before Jest runs).
 */
// Each CLI call is a process that loads every module: on a loaded 2-core machine that alone can take 20 s.
jest.setTimeout(180_000);

describe('operator CLI (e2e)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start();
  });

  afterAll(async () => {
    await service?.stop();
  });

  const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
    run('node', ['dist/apps/cli/src/main.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: service.config.dataDir, LOG_LEVEL: 'silent', ...extraEnv },
    });

  it('bootstraps a user and organization while the server runs; the token works at once', async () => {
    const { stdout } = await cli([
      'bootstrap',
      '--email',
      'ops@example.com',
      '--name',
      'Ops',
      '--org',
      'Ops Org',
      '--json',
    ]);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]);
    expect(printed).toEqual({
      userId: expect.any(String),
      token: expect.stringMatching(/^quire_[A-Za-z0-9_-]{43}$/),
      organizationId: expect.any(String),
    });
    const user = await service.call('GET', '/v1/user', { token: printed.token });
    expect(user.status).toBe(200);
    expect(user.body.id).toBe(printed.userId);
    const org = await service.call('GET', `/v1/orgs/${printed.organizationId}`, { token: printed.token });
    expect(org.status).toBe(200);
    expect(org.body.permissions.admin).toBe(true);

    // a second bootstrap of the same address finds the user and issues another token
    const again = JSON.parse((await cli(['bootstrap', '--email', 'OPS@example.com', '--json'])).stdout);
    expect(again.userId).toBe(printed.userId);
    expect(again.organizationId).toBeNull();
    expect(again.token).not.toBe(printed.token);
  });

  it('shows projection status and tails events', async () => {
    await cli(['bootstrap', '--email', 'tail@example.com', '--json']);
    await service.runtime.catchUp();
    const status = async () => JSON.parse((await cli(['projections', 'status', '--json'])).stdout);
    expect((await status()).projections.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['projection:users', 'projection:organizations', 'projection:members']),
    );
    // catchUp() waits for projections; process runners keep their own checkpoints and may still be moving. The
    // stored checkpoint of a projection the last events did not concern follows within a second.
    const lagging = async () =>
      (await status()).projections.filter(
        (p: { name: string; lag: number }) => p.name.startsWith('projection:') && p.lag > 0,
      );
    const until = Date.now() + 5000;
    while ((await lagging()).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lagging()).toEqual([]);
    const tail = (await cli(['events', 'tail', '--limit', '3'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(tail).toHaveLength(3);
    expect(tail[0]).toMatchObject({
      streamId: expect.any(String),
      type: expect.any(String),
      position: expect.any(String),
    });
  });

  it('rebuilds a damaged read model of the running server on request', async () => {
    const { token, organizationId } = JSON.parse(
      (await cli(['bootstrap', '--email', 'rebuild@example.com', '--org', 'Kept Title', '--json'])).stdout,
    );
    await service.runtime.catchUp();
    // damage the organizations read model behind the server's back, from another connection
    const reads = new SqliteReadStore({ file: join(service.config.dataDir, 'read.sqlite') });
    try {
      const stored = await reads.getStored('organizations', organizationId);
      await reads.write([
        {
          kind: 'put',
          collection: 'organizations',
          doc: { ...stored!.doc, title: 'Damaged' },
          position: stored!.position,
        },
      ]);
    } finally {
      await reads.close();
    }
    expect((await service.call('GET', `/v1/orgs/${organizationId}`, { token })).body.title).toBe('Damaged');

    const { stdout } = await cli(['projections', 'rebuild', 'organizations', '--wait', '--timeout', '20', '--json']);
    expect(JSON.parse(stdout)).toEqual({
      requested: ['organizations'],
      position: expect.stringMatching(/^[0-9]+$/),
      rebuilt: true,
      seconds: expect.any(Number),
    });
    expect((await service.call('GET', `/v1/orgs/${organizationId}`, { token })).body.title).toBe('Kept Title');
    const status = JSON.parse((await cli(['projections', 'status', '--json'])).stdout);
    expect(status.projections.find((p: { name: string }) => p.name === 'projection:organizations').parked).toBe(0);

    await expect(cli(['projections', 'rebuild', 'nonsense'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown projection: nonsense'),
    });
    await expect(cli(['projections', 'rebuild'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--all'),
    });
  });

  it('erases a user: their tokens stop working when it returns, their organizations lose them', async () => {
    const admin = JSON.parse(
      (await cli(['bootstrap', '--email', 'keeper@example.com', '--org', 'Kept Org', '--json'])).stdout,
    );
    const leaver = JSON.parse(
      (await cli(['bootstrap', '--email', 'leaver@example.com', '--name', 'Lea Ver', '--org', 'Own Org', '--json']))
        .stdout,
    );
    await service.runtime.catchUp();
    const invited = await service.call('POST', `/v1/orgs/${admin.organizationId}/invites`, {
      token: admin.token,
      body: { emails: ['leaver@example.com'], role: 'edit' },
    });
    expect(invited.status).toBe(200);

    // the last admin of an organization is not erased: nothing happens, exit code 1
    const before = await service.eventCount();
    await expect(cli(['users', 'erase', leaver.userId])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`last admin of organization ${leaver.organizationId} (Own Org)`),
    });
    expect(await service.eventCount()).toBe(before);
    expect((await service.call('GET', '/v1/user', { token: leaver.token })).status).toBe(200);

    await service.call('POST', `/v1/orgs/${leaver.organizationId}/invites`, {
      token: leaver.token,
      body: { emails: ['keeper@example.com'], role: 'admin' },
    });
    const { stdout } = await cli(['users', 'erase', leaver.userId, '--json']);
    expect(JSON.parse(stdout)).toEqual({
      userId: leaver.userId,
      erased: true,
      organizations: expect.arrayContaining([admin.organizationId, leaver.organizationId]),
      position: expect.stringMatching(/^[0-9]+$/),
      applied: true,
    });
    expect((await service.call('GET', '/v1/user', { token: leaver.token })).status).toBe(401);
    const members = await service.call('GET', `/v1/orgs/${admin.organizationId}/members`, { token: admin.token });
    expect(members.body.items.map((member: { id: string }) => member.id)).toEqual([admin.userId]);

    // repeating it finishes nothing new; an unknown id is refused
    expect(JSON.parse((await cli(['users', 'erase', leaver.userId, '--json'])).stdout)).toMatchObject({
      erased: false,
      organizations: [],
    });
    await expect(cli(['users', 'erase', 'nobody123'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('User nobody123 not found'),
    });
    await expect(cli(['users', 'erase'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('user id'),
    });
  });

  it('refuses bad arguments and bad configuration with a clear message', async () => {
    await expect(cli(['bootstrap', '--email', 'not-an-email'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--email'),
    });
    await expect(cli(['bootstrap', '--email', 'a@example.com'], { EVENT_STORE: 'postgres' })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('EVENT_STORE'),
    });
    await expect(cli(['frobnicate'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown command'),
    });
  });
});
