import { GitBookAPI } from '@gitbook/api';
import { newEventId } from '@app/kernel';
import { TestService, expectError } from '../support/service';

type Account = { userId: string; token: string; organizationId: string };

/** Finding organizations by email domain and by subdomain, without showing anyone what they may not know of. */
describe('organization lookups (e2e)', () => {
  let service: TestService;
  let acmeAdmin: Account;
  let acmeColleague: Account;
  let stranger: Account;
  let member: Account;
  let other: string;

  const as = (account: { token: string }) => service.as(account.token);

  beforeAll(async () => {
    service = await TestService.start();
    acmeAdmin = await service.signUp('admin@acme.test', { name: 'Admin', org: 'Acme' });
    acmeColleague = await service.signUp('colleague@acme.test', { name: 'Colleague' });
    stranger = await service.signUp('stranger@elsewhere.test', { name: 'Stranger', org: 'Elsewhere' });
    member = await service.signUp('member@elsewhere.test', { name: 'Member' });
    expect(
      (
        await as(acmeAdmin).patch(`/v1/orgs/${acmeAdmin.organizationId}`, {
          emailDomains: ['acme.test'],
          hostname: 'acme',
        })
      ).status,
    ).toBe(200);
    other = (await as(acmeAdmin).post('/v1/orgs', { title: 'Acme Labs', emailDomains: ['acme.test'] })).body.id;
    await as(acmeAdmin).post(`/v1/orgs/${other}/invites`, { emails: ['member@elsewhere.test'], role: 'read' });
  });

  afterAll(async () => {
    await service?.stop();
  });

  const titles = (body: { organizations: { title: string }[] }) => body.organizations.map((o) => o.title).sort();

  it('shows the organizations an email domain lets the caller join, and their own', async () => {
    const colleague = await as(acmeColleague).get('/v1/email-domains/acme.test/orgs');
    expect(colleague.status).toBe(200);
    expect(titles(colleague.body)).toEqual(['Acme', 'Acme Labs']);
    expect(colleague.body.organizations[0].permissions.view).toBe(false);
    const admin = await as(acmeAdmin).get('/v1/email-domains/ACME.test/orgs');
    expect(titles(admin.body)).toEqual(['Acme', 'Acme Labs']);
    expect(admin.body.organizations.every((o: { permissions: { admin: boolean } }) => o.permissions.admin)).toBe(true);
  });

  it('shows someone of another domain only the organizations they belong to', async () => {
    expect((await as(stranger).get('/v1/email-domains/acme.test/orgs')).body).toEqual({ organizations: [] });
    const belonging = await as(member).get('/v1/email-domains/acme.test/orgs');
    expect(titles(belonging.body)).toEqual(['Acme Labs']);
    expect((await as(member).get('/v1/email-domains/unknown.test/orgs')).body).toEqual({ organizations: [] });
  });

  it('refuses a malformed domain or subdomain with 400', async () => {
    expectError(await as(stranger).get('/v1/email-domains/not_a_domain/orgs'), 400, /emailDomain/);
    expectError(await as(stranger).get('/v1/subdomains/A!'), 400, /subdomain/);
    expectError(await as(stranger).get('/v1/subdomains/ab'), 400, /subdomain/);
    expectError(await service.call('GET', '/v1/subdomains/acme'), 401);
  });

  it('finds the organization of a subdomain; an unknown one is 404', async () => {
    const found = await as(stranger).get('/v1/subdomains/acme');
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      object: 'subdomain',
      subdomain: 'acme',
      target: { type: 'organization', organization: acmeAdmin.organizationId },
      isActive: true,
    });
    expectError(await as(stranger).get('/v1/subdomains/nobody-here'), 404);
  });

  it('keeps a hostname to one organization (409) and follows a change', async () => {
    await service.refused(
      () => as(stranger).patch(`/v1/orgs/${stranger.organizationId}`, { hostname: 'acme' }),
      409,
      /taken/,
    );
    expect((await as(acmeAdmin).patch(`/v1/orgs/${acmeAdmin.organizationId}`, { hostname: 'acme' })).status).toBe(200);
    expect((await as(acmeAdmin).patch(`/v1/orgs/${acmeAdmin.organizationId}`, { hostname: 'acme-two' })).status).toBe(
      200,
    );
    expectError(await as(stranger).get('/v1/subdomains/acme'), 404);
    const api = new GitBookAPI({ authToken: stranger.token, endpoint: service.url });
    const subdomain = await api.subdomains.getSubdomain('acme-two');
    expect(subdomain.data.target.organization).toBe(acmeAdmin.organizationId);
  });

  it('gives a name claimed by two organizations at once to one of them, and frees a name given up', async () => {
    const path = (account: Account) => `/v1/orgs/${account.organizationId}`;
    // 'acme' was given up for 'acme-two' above: free again
    expect((await as(stranger).patch(path(stranger), { hostname: 'acme' })).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const name = `race-${round}`;
      const answers = await Promise.all([
        as(stranger).patch(path(stranger), { hostname: name }),
        as(acmeAdmin).patch(path(acmeAdmin), { hostname: name }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers[0].status === 200 ? stranger : acmeAdmin;
      expect((await as(member).get(`/v1/subdomains/${name}`)).body.target.organization).toBe(winner.organizationId);
    }
    // a stale If-Match is refused before the name is claimed: nothing is appended, and the name stays free
    const etag = (await as(stranger).get(path(stranger))).headers.get('etag')!;
    expect((await as(stranger).patch(path(stranger), { title: 'Stranger Things' })).status).toBe(200);
    await service.refused(
      () =>
        service.call('PATCH', path(stranger), {
          token: stranger.token,
          body: { hostname: 'kept-free' },
          headers: { 'if-match': etag },
        }),
      412,
    );
    expect((await as(acmeAdmin).patch(path(acmeAdmin), { hostname: 'kept-free' })).status).toBe(200);
  });

  it('lets another organization take a name whose holder does not have it, once the hold is 10 minutes old', async () => {
    const path = (account: Account) => `/v1/orgs/${account.organizationId}`;
    // a claim whose organization update never came (the process stopped between the two appends)
    const stale = (hostname: string) =>
      service.events.append(
        `hostname-${hostname}`,
        [
          {
            id: newEventId(),
            type: 'HostnameClaimed',
            data: { hostname, organizationId: acmeAdmin.organizationId, claimedAt: service.clock.now().toISOString() },
          },
        ],
        'no_stream',
      );
    await stale('orphan');
    await service.refused(() => as(stranger).patch(path(stranger), { hostname: 'orphan' }), 409, /taken/);
    // a name its holder has ('kept-free', acme's) stays refused however old its hold
    service.clock.advance(11 * 60 * 1000);
    await service.refused(() => as(stranger).patch(path(stranger), { hostname: 'kept-free' }), 409, /taken/);
    expect((await as(stranger).patch(path(stranger), { hostname: 'orphan' })).status).toBe(200);
    expect((await as(member).get('/v1/subdomains/orphan')).body.target.organization).toBe(stranger.organizationId);
    const history = await service.events.readStream('hostname-orphan');
    expect(history.map((event) => [event.type, event.data.organizationId])).toEqual([
      ['HostnameClaimed', acmeAdmin.organizationId],
      ['HostnameReleased', acmeAdmin.organizationId],
      ['HostnameClaimed', stranger.organizationId],
    ]);
    expect(history[1].data.lapsed).toBe(true);
  });
});
