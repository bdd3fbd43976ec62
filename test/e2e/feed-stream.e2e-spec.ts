import { randomUUID } from 'node:crypto';
import { type PublicEvent } from '@app/kernel';
import { FeedStreams } from '@app/subscriptions';
import { TestService } from '../support/service';
import { type SseClient as Client, SseClient, type SseMessage } from '../support/sse';

type Account = { userId: string; token: string; organizationId: string };

/**
 * The organization feed as Server-Sent Events over real HTTP: exact resumption with Last-Event-ID, live start,
 * keep-alive comments, access (a guest's stream carries only what they can read), streams ended within two
 * seconds by a revoked token or a removed member, and a consumer that stops reading cut off with a last message.
 */
describe('organization feed stream (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let guest: Account;
  let member: Account;
  let shared: string;
  let hidden: string;
  const open: Client[] = [];

  const org = () => owner.organizationId;
  const as = (account: { token: string }) => service.as(account.token);
  const streamUrl = (query = '') => `${service.url}/v1/orgs/${org()}/events${query}`;

  async function subscribe(
    token: string,
    query = '',
    headers: Record<string, string> = {},
    onMessage?: (message: SseMessage, client: Client) => void,
  ) {
    const client = await SseClient.open(streamUrl(query), { authorization: `Bearer ${token}`, ...headers }, onMessage);
    open.push(client);
    return client;
  }
  const parsed = (client: Client) => client.events.map((message) => JSON.parse(message.data!) as PublicEvent);
  const connected = (client: Client) => client.waitFor(() => client.messages.length > 0);

  /** Appends title changes to a space straight to the store (what PATCH appends), one append each. */
  async function changeTitles(spaceId: string, count: number, title = (i: number) => `Title ${i}`) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      await service.events.append(
        `space-${spaceId}`,
        [
          {
            id,
            type: 'SpaceUpdated',
            data: { spaceId, changes: { title: title(i) }, updatedAt: new Date().toISOString() },
            metadata: { userId: owner.userId },
          },
        ],
        'any',
      );
      ids.push(id);
    }
    return ids;
  }

  async function lastPosition(): Promise<string> {
    let after = '0';
    for (;;) {
      const page = await as(owner).get(`/v1/orgs/${org()}/events?limit=1000&after=${after}`);
      if (page.body.items.length === 0) return after;
      after = page.body.items[page.body.items.length - 1].position;
    }
  }

  beforeAll(async () => {
    service = await TestService.start({
      SSE_KEEPALIVE_MS: '200',
      SSE_MAX_BUFFERED_BYTES: '65536',
      SSE_DRAIN_TIMEOUT_MS: '1000',
    });
    owner = await service.signUp('owner@stream.test', { name: 'Owner', org: 'Stream Inc' });
    const join = async (email: string, role: string | null) => {
      const account = await service.signUp(email, { name: 'Joiner' });
      expect((await as(owner).post(`/v1/orgs/${org()}/invites`, { emails: [email], role })).status).toBe(200);
      return { ...account, organizationId: org() };
    };
    guest = await join('guest@stream.test', null);
    member = await join('member@stream.test', 'read');
    shared = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Shared' })).body.id;
    hidden = (await as(owner).post(`/v1/orgs/${org()}/spaces`, { title: 'Hidden' })).body.id;
    await as(owner).post(`/v1/spaces/${shared}/permissions`, { users: [guest.userId], role: 'read' });
  }, 60_000);

  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('streams events with id, event and data, from `after`', async () => {
    const client = await subscribe(owner.token, '?after=0');
    expect(client.status).toBe(200);
    expect(client.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.response.headers['cache-control']).toBe('no-store');
    await client.waitFor(() => client.events.some((message) => message.event === 'permission.granted'));
    const [first] = client.events;
    const event = JSON.parse(first.data!) as PublicEvent;
    expect(first).toMatchObject({ id: event.position, event: 'organization.created' });
    expect(event.type).toBe('organization.created');
  });

  it('delivers every one of 1,000 changes exactly once and in order across random disconnects', async () => {
    const base = await lastPosition();
    const received: PublicEvent[] = [];
    let lastId = base;
    const cuts = new Set([1, 2, 3].map(() => 1 + Math.floor(Math.random() * 998)));
    const seed = [...cuts].join(',');
    const writing = changeTitles(shared, 1000);
    let rounds = 0;
    while (received.length < 1000) {
      rounds++;
      expect(rounds).toBeLessThan(20);
      const cut = [...cuts].filter((at) => at > received.length).sort((a, b) => a - b)[0] ?? Infinity;
      const target = Math.min(cut, 1000);
      let parsedHere = 0;
      // the connection is cut as the cut-th event is parsed, mid-stream (the rest of its chunk is never read)
      // (the first chunk may be parsed before `subscribe` returns: the callback is given the client)
      const client = await subscribe(owner.token, '', { 'last-event-id': lastId }, (message, self) => {
        if (message.data !== undefined && received.length + ++parsedHere >= target) self.close();
      });
      await Promise.race([
        client.waitFor(() => received.length + client.events.length >= target, 60_000),
        client.closed,
      ]);
      client.close();
      for (const message of client.events) {
        received.push(JSON.parse(message.data!) as PublicEvent);
        lastId = message.id!;
      }
    }
    const ids = await writing;
    expect({ seed, ids: received.map((event) => event.id) }).toEqual({ seed, ids });
    const positions = received.map((event) => BigInt(event.position));
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1])).toBe(true);
    expect(rounds).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('starts live without after or Last-Event-ID, and sends keep-alive comments', async () => {
    const client = await subscribe(owner.token);
    await connected(client);
    expect((await as(owner).patch(`/v1/spaces/${hidden}`, { title: 'Live' })).status).toBe(200);
    await client.waitFor(() => client.events.length > 0);
    expect(parsed(client).map((event) => [event.type, event.data])).toEqual([
      ['space.updated', { changes: { title: 'Live' } }],
    ]);
    await client.waitFor(() => client.messages.some((message) => message.comment === 'keep-alive'), 2000);
  });

  it('carries to a guest only the spaces they can read, judged as the events go out', async () => {
    const client = await subscribe(guest.token);
    await connected(client);
    await as(owner).patch(`/v1/spaces/${hidden}`, { title: 'Secret' });
    await as(owner).patch(`/v1/spaces/${shared}`, { title: 'Open' });
    await client.waitFor(() => client.events.length > 0);
    expect(parsed(client).map((event) => event.subject.id)).toEqual([shared]);
    // the grant goes, and with it the space's events; it comes back, and so do they
    await as(owner).delete(`/v1/spaces/${shared}/permissions/users/${guest.userId}`);
    await as(owner).patch(`/v1/spaces/${shared}`, { title: 'Closed' });
    await as(owner).post(`/v1/spaces/${shared}/permissions`, { users: [guest.userId], role: 'read' });
    await as(owner).patch(`/v1/spaces/${shared}`, { title: 'Open again' });
    const titles = () =>
      parsed(client)
        .filter((event) => event.type === 'space.updated')
        .map((event) => (event.data.changes as { title: string }).title);
    await client.waitFor(() => titles().length > 1);
    expect(parsed(client).map((event) => event.type)).toEqual(['space.updated', 'permission.granted', 'space.updated']);
    expect(titles()).toEqual(['Open', 'Open again']);
  });

  it('ends a stream within 2 seconds of its token being revoked', async () => {
    const second = await as(owner).post('/v1/user/tokens', { label: 'stream' });
    const client = await subscribe(second.body.token);
    await connected(client);
    expect((await as(owner).delete(`/v1/user/tokens/${second.body.id}`)).status).toBe(204);
    const revokedAt = performance.now();
    await client.closed;
    expect(performance.now() - revokedAt).toBeLessThan(2000);
    const last = client.messages[client.messages.length - 1];
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data!)).toEqual({ error: { code: 401, message: expect.stringMatching(/revoked/) } });
  });

  it('ends a stream within 2 seconds of its member leaving the organization', async () => {
    const client = await subscribe(member.token);
    await connected(client);
    expect((await as(owner).delete(`/v1/orgs/${org()}/members/${member.userId}`)).status).toBe(204);
    const removedAt = performance.now();
    await client.closed;
    expect(performance.now() - removedAt).toBeLessThan(2000);
    const last = client.messages[client.messages.length - 1];
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data!).error.code).toBe(404);
  });

  it('keeps a healthy stream open past REQUEST_TIMEOUT_MS: the connection guard sheds idle connections only', async () => {
    const strict = await TestService.start({ REQUEST_TIMEOUT_MS: '300', SSE_KEEPALIVE_MS: '10000' });
    try {
      const admin = await strict.signUp('admin@strict.test', { org: 'Strict' });
      const client = await SseClient.open(`${strict.url}/v1/orgs/${admin.organizationId}/events`, {
        authorization: `Bearer ${admin.token}`,
      });
      await client.waitFor(() => client.messages.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // five timeouts, nothing sent meanwhile
      expect(
        (await strict.as(admin.token).patch(`/v1/orgs/${admin.organizationId}`, { title: 'Still here' })).status,
      ).toBe(200);
      await client.waitFor(() => client.events.length > 0, 5000);
      expect(client.events[0].event).toBe('organization.updated');
      client.close();
    } finally {
      await strict.stop();
    }
  });

  it('answers 429 past SSE_MAX_STREAMS_PER_TOKEN for one token and SSE_MAX_STREAMS for the service', async () => {
    const bounded = await TestService.start({ SSE_MAX_STREAMS: '3', SSE_MAX_STREAMS_PER_TOKEN: '2' });
    const clients: SseClient[] = [];
    try {
      const admin = await bounded.signUp('admin@bounded.test', { org: 'Bounded' });
      const other = await bounded.signUp('other@bounded.test', { org: 'Other' });
      const url = (who: { organizationId: string }) => `${bounded.url}/v1/orgs/${who.organizationId}/events`;
      const stream = async (who: { token: string; organizationId: string }) => {
        const client = await SseClient.open(url(who), { authorization: `Bearer ${who.token}` });
        clients.push(client);
        return client;
      };
      const refusal = async (who: { token: string; organizationId: string }) => {
        const response = await fetch(url(who), {
          headers: { accept: 'text/event-stream', authorization: `Bearer ${who.token}` },
        });
        return { status: response.status, body: (await response.json()) as { error: { message: string } } };
      };
      expect((await stream(admin)).status).toBe(200);
      const second = await stream(admin);
      expect(second.status).toBe(200);
      const perToken = await refusal(admin);
      expect(perToken.status).toBe(429);
      expect(perToken.body.error.message).toMatch(/this token has 2 event streams open/i);
      expect((await stream(other)).status).toBe(200);
      const service = await refusal(other);
      expect(service.status).toBe(429);
      expect(service.body.error.message).toMatch(/3 event streams open/);
      // a stream that ends gives its place back
      second.close();
      const deadline = Date.now() + 5000;
      let reopened = 0;
      while (Date.now() < deadline && reopened !== 200) {
        const client = await stream(admin);
        reopened = client.status;
        if (reopened !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(reopened).toBe(200);
    } finally {
      for (const client of clients) client.close();
      await bounded.stop();
    }
  });

  it('refuses a bad Last-Event-ID with 400 before streaming', async () => {
    const client = await subscribe(owner.token, '', { 'last-event-id': 'yesterday' });
    expect(client.status).toBe(400);
  });

  it('disconnects a consumer that stops reading, with a last error message, instead of buffering', async () => {
    const streams = service.app.get(FeedStreams);
    const client = await subscribe(owner.token);
    await connected(client);
    const before = streams.count;
    client.pause();
    // 10 MB of events: more than the socket buffers hold, far more than the 64 KiB the stream may leave in its own
    await changeTitles(hidden, 1000, (i) => `${i} `.padEnd(10_000, 'x'));
    const deadline = Date.now() + 30_000;
    while (streams.count >= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(streams.count).toBeLessThan(before);
    client.resume();
    await client.closed;
    const last = client.messages[client.messages.length - 1];
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data!).error).toEqual({ code: 429, message: expect.stringMatching(/too slowly/) });
    expect(client.events.length).toBeLessThan(1001);
  }, 60_000);
});
