import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLIC_EVENT_SOURCE, type PublicEvent, type PublicEventSource, START } from '@app/kernel';
import { WebhookDelivery } from '@app/subscriptions';
import { TestService } from '../support/service';

/**
 * Webhook deliveries end to end: the service on the embedded backends, its public events, and a receiver on
 * 127.0.0.1 (admitted by FETCH_ALLOWLIST) that answers 500 to its first five calls and 200 after. The service
 * clock is moved by the test (the retry schedule is the production one) and the service is restarted over the
 * same data directory in the middle.
 */

/** The Standard Webhooks check, written from the specification (not the service's signer). */
function verified(secret: string, headers: IncomingMessage['headers'], body: string): boolean {
  const [id, timestamp, header] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => headers[h]);
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof header !== 'string') return false;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest();
  return header.split(' ').some((entry) => {
    const given = Buffer.from(entry.replace(/^v1,/, ''), 'base64');
    return entry.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('subscriptions: webhook deliveries (e2e)', () => {
  let dir: string;
  let receiver: Server;
  let port: number;
  let calls = 0;
  let failFirst = 5;
  const received: { event: PublicEvent; status: number; signed: boolean }[] = [];
  let secret = '';
  let service: TestService;

  const start = async () => {
    service = await TestService.start({ FETCH_ALLOWLIST: `127.0.0.1:${port}`, FETCH_TIMEOUT_MS: '2000' }, dir);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-webhooks-e2e-'));
    receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = calls++ < failFirst ? 500 : 200;
        received.push({
          event: JSON.parse(body) as PublicEvent,
          status,
          signed: verified(secret, request.headers, body),
        });
        response.writeHead(status).end(status === 200 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    await start();
  });

  afterAll(async () => {
    await service?.stop(false);
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Moves the service clock a second at a time and wakes the workers, until `done` holds. */
  async function runUntil(done: () => boolean, stepMs = 1000) {
    for (let i = 0; !done(); i++) {
      if (i > 3000) throw new Error(`not reached: ${received.length} calls received`);
      service.clock.advance(stepMs);
      service.app.get(WebhookDelivery).wakeAll();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const acknowledged = () => received.filter((r) => r.status === 200).map((r) => r.event);

  async function publicEventsOf(organizationId: string): Promise<PublicEvent[]> {
    await service.runtime.catchUp();
    const source = service.app.get<PublicEventSource>(PUBLIC_EVENT_SOURCE);
    return (await source.read(organizationId, { after: START, limit: 1000 })).map((stored) => stored.event);
  }

  it('delivers every event in order once acknowledged, across a restart, and lists each attempt', async () => {
    const ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    const as = service.as(ada.token);
    const created = await as.post(`/v1/orgs/${ada.organizationId}/webhooks`, {
      url: `http://127.0.0.1:${port}/hook`,
    });
    expect(created.status).toBe(201);
    secret = created.body.secret;
    const webhook = `/v1/orgs/${ada.organizationId}/webhooks/${created.body.id}`;

    // what happened before the webhook existed is not sent
    const earlier = new Set((await publicEventsOf(ada.organizationId)).map((event) => event.id));
    for (let i = 0; i < 4; i++) {
      const space = await as.post(`/v1/orgs/${ada.organizationId}/spaces`, { title: `Space ${i}` });
      expect(space.status).toBe(201);
    }
    await runUntil(() => acknowledged().length >= 2);
    expect(received.slice(0, 5).every((r) => r.status === 500 && r.event.id === received[0].event.id)).toBe(true);

    // restart over the same data directory while events are still waiting
    await service.stop(false);
    await start();
    const as2 = service.as(ada.token);
    for (let i = 4; i < 7; i++) await as2.post(`/v1/orgs/${ada.organizationId}/spaces`, { title: `Space ${i}` });
    const expected = (await publicEventsOf(ada.organizationId))
      .filter((event) => !earlier.has(event.id))
      .map((event) => event.id);
    expect(expected.length).toBeGreaterThanOrEqual(7);
    await runUntil(() => acknowledged().length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(acknowledged().map((event) => event.id)).toEqual(expected);
    expect(received.every((r) => r.signed)).toBe(true);
    expect(acknowledged().some((event) => event.type === 'space.created')).toBe(true);

    await service.runtime.catchUp();
    const deliveries = await as2.get(`${webhook}/deliveries?limit=1000`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.count).toBe(received.length);
    const oldest = deliveries.body.items[deliveries.body.items.length - 1];
    expect(oldest).toEqual({
      object: 'webhook-delivery',
      id: expect.any(String),
      eventId: received[0].event.id,
      position: received[0].event.position,
      attempt: 1,
      attemptedAt: expect.any(String),
      statusCode: 500,
      durationMs: expect.any(Number),
      response: 'not now',
      error: null,
    });
    expect(deliveries.body.items[0]).toMatchObject({ statusCode: 200, eventId: expected[expected.length - 1] });
    expect((await as2.get(webhook)).body.status).toBe('active');
  });

  it('sends again what follows a position on POST .../redeliver', async () => {
    const ada = await service.signUp('ada2@example.com', { name: 'Ada', org: 'Second' });
    const as = service.as(ada.token);
    const created = await as.post(`/v1/orgs/${ada.organizationId}/webhooks`, {
      url: `http://127.0.0.1:${port}/hook`,
      types: ['space.created'],
    });
    secret = created.body.secret;
    for (let i = 0; i < 3; i++) await as.post(`/v1/orgs/${ada.organizationId}/spaces`, { title: `S${i}` });
    const mine = () => acknowledged().filter((event) => event.organization === ada.organizationId);
    await runUntil(() => mine().length === 3);
    expect(mine().map((event) => event.type)).toEqual(['space.created', 'space.created', 'space.created']);
    const redeliver = await as.post(`/v1/orgs/${ada.organizationId}/webhooks/${created.body.id}/redeliver`, {
      after: mine()[0].position,
    });
    expect(redeliver.status).toBe(202);
    await runUntil(() => mine().length === 5);
    expect(
      mine()
        .slice(3)
        .map((event) => event.id),
    ).toEqual(
      mine()
        .slice(1, 3)
        .map((event) => event.id),
    );
  });

  it('shows a webhook whose receiver fails for 24 hours as failing', async () => {
    const ada = await service.signUp('ada3@example.com', { name: 'Ada', org: 'Third' });
    const as = service.as(ada.token);
    failFirst = Number.POSITIVE_INFINITY;
    const created = await as.post(`/v1/orgs/${ada.organizationId}/webhooks`, {
      url: `http://127.0.0.1:${port}/hook`,
      types: ['space.created'],
    });
    await as.post(`/v1/orgs/${ada.organizationId}/spaces`, { title: 'Unlucky' });
    const path = `/v1/orgs/${ada.organizationId}/webhooks/${created.body.id}`;
    let status = 'active';
    for (let i = 0; i < 100 && status !== 'failing'; i++) {
      await runUntil(() => true);
      service.clock.advance(30 * 60_000);
      service.app.get(WebhookDelivery).wakeAll();
      await new Promise((resolve) => setTimeout(resolve, 30));
      status = (await as.get(path)).body.status;
    }
    expect(status).toBe('failing');
    failFirst = 0;
    calls = 0;
    for (let i = 0; i < 50 && status !== 'active'; i++) {
      service.clock.advance(30 * 60_000);
      service.app.get(WebhookDelivery).wakeAll();
      await new Promise((resolve) => setTimeout(resolve, 30));
      status = (await as.get(path)).body.status;
    }
    expect(status).toBe('active');
  });
});
