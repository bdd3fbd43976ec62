import { PUBLIC_EVENT_MAPPERS, type PublicEvent, type PublicEventMapper } from '@app/kernel';
import { PublicEventValidator } from '@app/kernel/testing';
import { type Response, TestService } from '../support/service';

/**
 * Resources as they were: `?at=` on the GET of a resource folds its own event stream up to a position or an
 * instant, with today's access check.
 */

type Account = { userId: string; token: string; organizationId: string };

describe('history: resources as they were', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  /** Every history entry read, to check against the public catalogue's schemas at the end. */
  const entries: (PublicEvent & { changes?: unknown })[] = [];

  const as = (token: string) => service.as(token);
  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
  });

  afterAll(async () => {
    await service?.stop();
  });

  /** Positions of the events of a stream, oldest first. */
  async function positionsOf(streamId: string): Promise<string[]> {
    return (await service.events.readStream(streamId)).map((event) => event.position.toString());
  }

  describe('a space', () => {
    let spaceId: string;
    let positions: string[];

    beforeAll(async () => {
      const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { title: 'First' });
      expect(created.status).toBe(201);
      spaceId = created.body.id;
      for (const title of ['Second', 'Third']) {
        service.clock.advance(1000);
        expect((await as(ada.token).patch(`/v1/spaces/${spaceId}`, { title })).status).toBe(200);
      }
      positions = await positionsOf(`space-${spaceId}`);
      expect(positions).toHaveLength(3);
    });

    it('answers each past version at the position of its event, and the current one without a position', async () => {
      const titles: string[] = [];
      for (const position of positions) {
        const past = await as(ada.token).get(`/v1/spaces/${spaceId}?at=${position}`);
        expect(past.status).toBe(200);
        expect(past.headers.get('etag')).toBeNull();
        titles.push(past.body.title);
      }
      expect(titles).toEqual(['First', 'Second', 'Third']);
      const now = await as(ada.token).get(`/v1/spaces/${spaceId}`);
      expect(now.body.title).toBe('Third');
      expect(now.headers.get('etag')).not.toBeNull();
    });

    it('takes an ISO time too: before the space existed it is 404, after its last change it is the current space', async () => {
      expectNotFound(await as(ada.token).get(`/v1/spaces/${spaceId}?at=2001-01-01T00:00:00Z`));
      const later = await as(ada.token).get(`/v1/spaces/${spaceId}?at=2999-01-01T00:00:00.000%2B02:00`);
      expect(later.status).toBe(200);
      expect(later.body.title).toBe('Third');
      const before = BigInt(positions[0]) - 1n;
      expectNotFound(await as(ada.token).get(`/v1/spaces/${spaceId}?at=${before}`));
    });

    it('refuses a malformed point in time with a 400 naming it', async () => {
      for (const at of ['yesterday', '2026-13-45T00:00:00Z', '2026-01-01', '-3', '1e5', '2026-01-01T00:00:00']) {
        await refused(() => as(ada.token).get(`/v1/spaces/${spaceId}?at=${encodeURIComponent(at)}`), 400, /\bat\b/);
      }
    });

    it('lists its history newest first: created, then each rename with its old and new title', async () => {
      const history = await as(ada.token).get(`/v1/spaces/${spaceId}/history`);
      expect(history.status).toBe(200);
      expect(history.body.count).toBe(3);
      expect(history.body.items.map((item: { position: string }) => item.position)).toEqual([...positions].reverse());
      expect(history.body.items.map((item: { type: string }) => item.type)).toEqual([
        'space.updated',
        'space.updated',
        'space.created',
      ]);
      expect(history.body.items[0]).toMatchObject({
        organization: ada.organizationId,
        actor: { id: ada.userId },
        subject: { object: 'space', id: spaceId },
        changes: { title: { from: 'Second', to: 'Third' } },
      });
      expect(history.body.items[2].changes).toBeUndefined();
      entries.push(...history.body.items);
      expectNotFound(await as(bob.token).get(`/v1/spaces/${spaceId}/history`));
    });

    it("applies today's access: another organization's member gets 404 for any point in time", async () => {
      expectNotFound(await as(bob.token).get(`/v1/spaces/${spaceId}?at=${positions[0]}`));
    });
  });

  describe('every resource that keeps its history', () => {
    /** How to create a resource, change its title-like field twice, and where its GET and stream are. */
    interface Subject {
      name: string;
      create(): Promise<{ path: string; stream: string; field: string; values: string[]; token?: string }>;
    }

    const subjects: Subject[] = [
      {
        name: 'organization',
        async create() {
          const owner = await service.signUp('olga@example.com', { org: 'Org One' });
          const org = owner.organizationId;
          const stream = `organization-${org}`;
          return { path: `/v1/orgs/${org}`, stream, field: 'title', values: ['Org One'], token: owner.token };
        },
      },
      {
        name: 'collection',
        async create() {
          const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/collections`, { title: 'Col One' });
          const id = created.body.id;
          return { path: `/v1/collections/${id}`, stream: `collection-${id}`, field: 'title', values: ['Col One'] };
        },
      },
      {
        name: 'change request',
        async create() {
          const space = (await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { title: 'CR home' })).body;
          const created = await as(ada.token).post(`/v1/spaces/${space.id}/change-requests`, { subject: 'CR One' });
          const path = `/v1/spaces/${space.id}/change-requests/${created.body.id}`;
          return { path, stream: `changerequests-${space.id}`, field: 'subject', values: ['CR One'] };
        },
      },
      {
        name: 'site',
        async create() {
          const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/sites`, { title: 'Site One' });
          const path = `/v1/orgs/${ada.organizationId}/sites/${created.body.id}`;
          return { path, stream: `site-${created.body.id}`, field: 'title', values: ['Site One'] };
        },
      },
      {
        name: 'custom field',
        async create() {
          const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/custom-fields`, {
            name: 'stage',
            type: 'text',
            title: 'Field One',
          });
          expect(created.status).toBe(201);
          const path = `/v1/orgs/${ada.organizationId}/custom-fields/stage`;
          return { path, stream: `customfields-${ada.organizationId}`, field: 'title', values: ['Field One'] };
        },
      },
    ];

    it.each(subjects.map((subject) => [subject.name, subject] as const))(
      'a %s is answered as it was at each position (404 before it existed) and lists its history, newest first',
      async (_name, subject) => {
        const { path, stream, field, values, token } = await subject.create();
        const owner = token ?? ada.token;
        const before = await service.events.headPosition();
        for (const value of ['Second', 'Third']) {
          service.clock.advance(1000);
          const changed = await as(owner).patch(path, { [field]: value });
          expect(changed.status).toBe(200);
          values.push(value);
        }
        const changes = (await service.events.readStream(stream)).filter((event) => event.position > before);
        expect(changes.length).toBeGreaterThanOrEqual(2);
        const seen: string[] = [];
        for (const position of [before, ...changes.map((event) => event.position)]) {
          const past = await as(owner).get(`${path}?at=${position}`);
          expect(past.status).toBe(200);
          expect(past.headers.get('etag')).toBeNull();
          if (seen[seen.length - 1] !== past.body[field]) seen.push(past.body[field]);
        }
        expect(seen).toEqual(values);
        const first = (await service.events.readStream(stream))[0].position;
        expectNotFound(await as(owner).get(`${path}?at=${first - 1n}`));
        await refused(() => as(owner).get(`${path}?at=soon`), 400, /\bat\b/);
        expectNotFound(await as(bob.token).get(`${path}?at=${before}`));

        // its history: newest first, each change with the values of the time, paged like every list
        const history = await as(owner).get(`${path}/history`);
        expect(history.status).toBe(200);
        const items = history.body.items as (PublicEvent & { changes?: object })[];
        entries.push(...items);
        expect(history.body.count).toBe(items.length);
        expect(items.length).toBeGreaterThanOrEqual(3);
        const positions = items.map((item) => BigInt(item.position));
        expect([...positions].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(positions);
        expect(items[0]).toMatchObject({
          id: expect.any(String),
          version: expect.any(Number),
          occurredAt: expect.any(String),
          actor: { id: expect.any(String) },
          subject: { object: expect.any(String), id: expect.any(String) },
          changes: { [field]: { from: values[values.length - 2], to: values[values.length - 1] } },
        });
        expect(items[1].changes).toEqual({
          [field]: { from: values[values.length - 3], to: values[values.length - 2] },
        });
        expect(items[items.length - 1].type).toMatch(/\.created$/);
        const newest = await as(owner).get(`${path}/history?limit=1`);
        expect(newest.body.items).toEqual([items[0]]);
        const second = await as(owner).get(`${path}/history?limit=1&page=${encodeURIComponent(newest.body.next.page)}`);
        expect(second.body.items).toEqual([items[1]]);
        await refused(() => as(owner).get(`${path}/history?limit=5000`), 400, /limit/);
        expectNotFound(await as(bob.token).get(`${path}/history`));
      },
    );
  });

  it('lists only entries that are public events of the catalogue, each valid against its schema', () => {
    expect(entries.length).toBeGreaterThan(15);
    const validator = new PublicEventValidator(service.app.get<PublicEventMapper[]>(PUBLIC_EVENT_MAPPERS));
    const problems = entries.flatMap(({ changes: _changes, ...event }) => validator.problems(event));
    expect(problems).toEqual([]);
  });

  function expectNotFound(response: Response) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 404, message: expect.any(String) } });
  }
});
