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

    it("applies today's access: another organization's member gets 404 for any point in time", async () => {
      expectNotFound(await as(bob.token).get(`/v1/spaces/${spaceId}?at=${positions[0]}`));
    });
  });

  function expectNotFound(response: Response) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 404, message: expect.any(String) } });
  }
});
