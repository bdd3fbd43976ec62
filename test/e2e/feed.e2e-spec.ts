import { PUBLIC_EVENT_MAPPERS, type PublicEvent, type PublicEventMapper } from '@app/kernel';
import { PublicEventValidator } from '@app/kernel/testing';
import { TestService, expectError } from '../support/service';

type Account = { userId: string; token: string; organizationId: string };

/**
 * The organization feed as JSON over real HTTP: paging with `after` and `next`, the `types` filter, refused input,
 * access judged when the feed is read (a guest sees only the spaces they can read now, admins see everything),
 * and every public event produced here valid against its published schema.
 */
describe('organization feed (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let outsider: Account;
  let guest: Account;
  let reader: Account;
  let shared: string;
  let hidden: string;
  let validator: PublicEventValidator;
  /** Every event any test read, for the schema check at the end. */
  const seen = new Map<string, PublicEvent>();

  const org = () => owner.organizationId;
  const as = (account: { token: string }) => service.as(account.token);

  async function feed(account: Account, query = '', organizationId = org()) {
    const response = await as(account).get(`/v1/orgs/${organizationId}/events${query}`);
    if (response.status === 200) for (const event of response.body.items as PublicEvent[]) seen.set(event.id, event);
    return response;
  }

  /** Every page of the feed, following `next`. */
  async function all(account: Account, query = ''): Promise<PublicEvent[]> {
    const events: PublicEvent[] = [];
    let page: string | undefined;
    for (let round = 0; round < 100; round++) {
      const response = await feed(account, `${query}${page ? `${query ? '&' : '?'}page=${page}` : ''}`);
      expect(response.status).toBe(200);
      events.push(...response.body.items);
      page = response.body.next?.page;
      if (!page) return events;
    }
    throw new Error('the feed did not end');
  }

  beforeAll(async () => {
    service = await TestService.start();
    owner = await service.signUp('owner@feed.test', { name: 'Owner Person', org: 'Feed Inc' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    const join = async (email: string, role: string | null) => {
      const account = await service.signUp(email, { name: 'Joiner Person' });
      expect((await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: [email], role })).status).toBe(200);
      return { ...account, organizationId: org() };
    };
    guest = await join('guest@feed.test', null);
    reader = await join('reader@feed.test', 'read');
    shared = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Shared' })).body.id;
    hidden = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Hidden' })).body.id;
    expect(
      (await as(owner).post(`/v1/spaces/${shared}/permissions`, { users: [guest.userId], role: 'read' })).status,
    ).toBe(204);
    expect((await as(owner).patch(`/v1/spaces/${shared}`, { title: 'Shared guide' })).status).toBe(200);
    expect((await as(owner).patch(`/v1/spaces/${hidden}`, { title: 'Hidden notes' })).status).toBe(200);
    const comment = await as(owner).post(`/v1/spaces/${hidden}/comments`, { body: { markdown: 'between us' } });
    expect(comment.status).toBe(200);
    const saml = await fetch(`${service.url}/v1/orgs/${org()}/saml`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Okta' }),
    });
    expect(saml.status).toBe(201);
    validator = new PublicEventValidator(service.app.get<PublicEventMapper[]>(PUBLIC_EVENT_MAPPERS));
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
  });

  it("lists the organization's public events in order, from the beginning, ids and no personal data", async () => {
    const events = await all(owner);
    const types = events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['organization.created', 'member.added']);
    expect(types).toEqual(
      expect.arrayContaining([
        'space.created',
        'space.updated',
        'permission.granted',
        'comment.posted',
        'saml_provider.created',
      ]),
    );
    const positions = events.map((event) => BigInt(event.position));
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1])).toBe(true);
    expect(events.every((event) => event.organization === org())).toBe(true);
    const updated = events.find((event) => event.type === 'space.updated' && event.subject.id === shared)!;
    expect(updated).toMatchObject({
      version: 1,
      actor: { id: owner.userId },
      subject: { object: 'space', id: shared },
      data: { changes: { title: 'Shared guide' } },
      occurredAt: expect.any(String),
    });
    const text = JSON.stringify(events);
    expect(text).not.toMatch(/feed\.test|Owner Person|Joiner Person|between us/);
    // the other organization's events are not here
    expect(text).not.toContain(outsider.organizationId);
  });

  it('pages with limit and next, and resumes after any position', async () => {
    const everything = await all(owner);
    const paged = await all(owner, '?limit=2');
    expect(paged.map((event) => event.id)).toEqual(everything.map((event) => event.id));
    const first = await feed(owner, '?limit=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.next).toEqual({ page: first.body.items[2].position });
    const rest = await all(owner, `?after=${everything[4].position}`);
    expect(rest.map((event) => event.id)).toEqual(everything.slice(5).map((event) => event.id));
    expect((await feed(owner, '?after=0')).body.items.map((e: PublicEvent) => e.id)).toEqual(
      everything.slice(0, 100).map((event) => event.id),
    );
    const end = await feed(owner, `?after=${everything[everything.length - 1].position}`);
    expect(end.body).toEqual({ items: [] });
    expect((await feed(owner, '?limit=0')).body).toEqual({ items: [] });
  });

  it('filters by types, repeated or as a comma list', async () => {
    const repeated = await all(owner, '?types=space.created&types=space.updated');
    expect(new Set(repeated.map((event) => event.type))).toEqual(new Set(['space.created', 'space.updated']));
    expect(repeated).toHaveLength(4);
    const comma = await all(owner, '?types=space.created,space.updated');
    expect(comma.map((event) => event.id)).toEqual(repeated.map((event) => event.id));
  });

  it('refuses bad input with 400', async () => {
    expectError(await feed(owner, '?types=space.exploded'), 400, /types: unknown event type space\.exploded/);
    expectError(await feed(owner, '?after=-1'), 400, /after/);
    expectError(await feed(owner, '?after=abc'), 400, /after/);
    expectError(await feed(owner, '?page=x1'), 400, /page/);
    expectError(await feed(owner, '?after=1&page=2'), 400, /after or page/);
    expectError(await feed(owner, '?limit=1001'), 400, /limit/);
    expectError(await feed(owner, '?bogus=1'), 400);
  });

  it("answers 404 for another organization's feed, and 401 without a token", async () => {
    expectError(await feed(outsider), 404);
    expectError(await feed(owner, '', outsider.organizationId), 404);
    expectError(await feed(owner, '', 'no-such-organization'), 404);
    const anonymous = await fetch(`${service.url}/v1/orgs/${org()}/events`);
    expect(anonymous.status).toBe(401);
  });

  it('shows a guest only the spaces they can read now, and an admin everything', async () => {
    const forGuest = await all(guest);
    expect(forGuest.length).toBeGreaterThan(0);
    const about = (events: PublicEvent[]) => new Set(events.map((event) => JSON.stringify(event.subject)));
    expect(forGuest.every((event) => event.subject.id === shared)).toBe(true);
    expect(about(forGuest)).toEqual(new Set([JSON.stringify({ object: 'space', id: shared })]));
    // a page of one still finds the guest's events among the many they cannot see
    const first = await feed(guest, '?limit=1');
    expect(first.body.items).toHaveLength(1);
    expect(first.body.items[0].subject.id).toBe(shared);

    const forReader = await all(reader);
    expect(forReader.some((event) => event.subject.id === hidden)).toBe(true);
    expect(forReader.some((event) => event.type === 'saml_provider.created')).toBe(false);
    const forOwner = await all(owner);
    expect(forOwner.some((event) => event.type === 'saml_provider.created')).toBe(true);
    expect(forOwner.length).toBeGreaterThan(forReader.length);

    // access is judged when the feed is read: once the grant goes, so do the events
    expect((await as(owner).delete(`/v1/spaces/${shared}/permissions/users/${guest.userId}`)).status).toBe(204);
    expect(await all(guest)).toEqual([]);
  });

  it('serves the catalogue of kinds with their schemas to any signed-in caller', async () => {
    const response = await as(outsider).get('/v1/events/schemas');
    expect(response.status).toBe(200);
    const types = response.body.items.map((item: { type: string }) => item.type);
    expect(types).toEqual([...types].sort());
    expect(types).toEqual(expect.arrayContaining(['space.created', 'change_request.merged', 'site.published']));
    const created = response.body.items.find((item: { type: string }) => item.type === 'space.created');
    expect(created).toMatchObject({
      version: 1,
      subject: 'space',
      schema: { properties: { type: { const: 'space.created' } }, additionalProperties: false },
    });
    expect((await fetch(`${service.url}/v1/events/schemas`)).status).toBe(401);
  });

  it('produced only events that validate against their schemas', () => {
    expect(seen.size).toBeGreaterThan(10);
    const problems = [...seen.values()].flatMap((event) => validator.problems(event));
    expect(problems).toEqual([]);
  });
});
