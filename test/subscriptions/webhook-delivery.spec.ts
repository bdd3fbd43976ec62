import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type EventStore,
  type GlobalPosition,
  ManualClock,
  type PublicEvent,
  type PublicEventSource,
  SecretBox,
  type StoredPublicEvent,
  handleCommand,
} from '@app/kernel';
import { createEventStore } from '@app/event-store';
import { SafeFetcher } from '@app/fetcher';
import { webhookDecider, webhookStream } from '@app/subscriptions/domain/webhook.decider';
import {
  DEFAULT_RETRY_POLICY,
  type WebhookDeliveryAttempted,
  webhookDeliveryStream,
} from '@app/subscriptions/domain/webhook-delivery.decider';
import { WebhookDispatcher } from '@app/subscriptions/processes/webhook-delivery/webhook-dispatcher';
import { newWebhookSecret, secretContext } from '@app/subscriptions/application/webhook-signature';

/**
 * The delivery of webhooks against a real receiver (node:http on 127.0.0.1, admitted by the fetcher's allowlist),
 * the embedded event store, and an in-memory public event source standing in for the feed's. Time is a manual
 * clock the tests move; the retry schedule is the production one (1 s, doubling, at most 1 h; failing after 24 h).
 */

/** A public event source over an array: what the feed's projection provides in the service. */
class ListSource implements PublicEventSource {
  readonly events: PublicEvent[] = [];
  private waiters: (() => void)[] = [];

  add(event: PublicEvent): void {
    this.events.push(event);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  async read(organization: string, options: { after: GlobalPosition; limit: number }): Promise<StoredPublicEvent[]> {
    return this.events
      .filter((event) => event.organization === organization && BigInt(event.position) > options.after)
      .slice(0, options.limit)
      .map((event) => ({ event }));
  }

  position(): GlobalPosition {
    return this.events.length === 0 ? -1n : BigInt(this.events[this.events.length - 1].position);
  }

  waitAfter(after: GlobalPosition, signal: AbortSignal): Promise<void> {
    if (this.position() > after || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
}

/**
 * The Standard Webhooks check, written here from the specification rather than taken from the service: the
 * signed content is `id.timestamp.body`, the key is the base64 after `whsec_`, the header holds space-separated
 * `v1,<base64>` signatures, and the timestamp must be within five minutes of now.
 */
function verifyStandardWebhook(secret: string, headers: IncomingMessage['headers'], body: string, nowMs: number) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.split('_')[1], 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

interface Received {
  id: string;
  position: string;
  status: number;
  verified: boolean;
}

describe('webhook delivery', () => {
  let dir: string;
  let events: EventStore;
  let clock: ManualClock;
  let source: ListSource;
  let receiver: Server;
  let port: number;
  let received: Received[];
  /** Status the receiver answers to the n-th call (0-based); 200 by default. */
  let answer: (call: number) => number | 'hang';
  let dispatcher: WebhookDispatcher | undefined;
  let secret: string;
  let origin: bigint;
  const secretBox = new SecretBox('s'.repeat(32));
  const org = 'org1';

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-webhooks-'));
    events = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    clock = new ManualClock('2026-03-01T00:00:00.000Z');
    source = new ListSource();
    received = [];
    answer = () => 200;
    receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = answer(received.length);
        const event = JSON.parse(body) as PublicEvent;
        received.push({
          id: event.id,
          position: event.position,
          status: status === 'hang' ? 0 : status,
          verified: verifyStandardWebhook(secret, request.headers, body, clock.now().getTime()),
        });
        if (status === 'hang') return;
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(status === 200 ? 'thanks' : 'x'.repeat(5000));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function start(timeoutMs = 2000): WebhookDispatcher {
    const started = new WebhookDispatcher(
      {
        events,
        source,
        fetcher: new SafeFetcher({ allowlist: [`127.0.0.1:${port}`], timeoutMs }),
        clock,
        secretBox,
        policy: DEFAULT_RETRY_POLICY,
        pollMs: 5,
        logger: { error: (message) => console.error(message) },
      },
      async () => ['wh1'],
    );
    dispatcher = started;
    return started;
  }

  async function createWebhook(settings: { types?: string[]; active?: boolean } = {}) {
    secret = newWebhookSecret();
    const result = await handleCommand(events, webhookDecider, webhookStream('wh1'), {
      type: 'CreateWebhook',
      data: {
        webhookId: 'wh1',
        organizationId: org,
        url: `http://127.0.0.1:${port}/hook`,
        types: settings.types ?? [],
        active: settings.active ?? true,
        sealedSecret: secretBox.seal({ secret }, secretContext('wh1')),
      },
      metadata: { now: clock.now().toISOString() },
    });
    origin = result.position!;
  }

  async function changeWebhook(type: 'UpdateWebhook' | 'RequestWebhookRedelivery', data: Record<string, unknown>) {
    await handleCommand(events, webhookDecider, webhookStream('wh1'), {
      type,
      data: { webhookId: 'wh1', organizationId: org, ...data },
      metadata: { now: clock.now().toISOString() },
    } as never);
  }

  /** Public events of the organization at positions after the webhook's creation. */
  function publish(count: number, type = 'space.updated', organization = org): PublicEvent[] {
    const added: PublicEvent[] = [];
    for (let i = 0; i < count; i++) {
      const position = String(origin + 1n + BigInt(source.events.length));
      const event: PublicEvent = {
        id: `evt-${position}`,
        type,
        version: 1,
        position,
        occurredAt: clock.now().toISOString(),
        organization,
        actor: { id: 'user1' },
        subject: { object: 'space', id: 'space1' },
        data: { title: `change ${position}` },
      };
      source.add(event);
      added.push(event);
    }
    return added;
  }

  /** Moves the clock by `stepMs` every few milliseconds until `done` holds. */
  async function runUntil(done: () => boolean, stepMs = 1000, limit = 20_000) {
    for (let i = 0; !done(); i++) {
      if (i > limit) throw new Error(`not reached; received ${JSON.stringify(received.slice(-5))}`);
      clock.advance(stepMs);
      dispatcher?.wakeAll();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  async function attempts(): Promise<WebhookDeliveryAttempted['data'][]> {
    return (await events.readStream(webhookDeliveryStream('wh1')))
      .filter((event) => event.type === 'WebhookDeliveryAttempted')
      .map((event) => event.data as WebhookDeliveryAttempted['data']);
  }

  const acknowledged = () => received.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.position);

  it('delivers every event in order, signed, once a receiver that failed five times answers 200', async () => {
    await createWebhook();
    const sent = publish(20);
    answer = (call) => (call < 5 ? 500 : 200);
    await start().start();
    await runUntil(() => acknowledged().length === 20);

    expect(acknowledged()).toEqual(sent.map((event) => event.position));
    expect(received.every((r) => r.verified)).toBe(true);
    // the first event was tried six times, the others once; nothing after it went out before it succeeded
    expect(received.slice(0, 6).map((r) => r.position)).toEqual(Array(6).fill(sent[0].position));
    expect(received).toHaveLength(25);
    const recorded = await attempts();
    const first = recorded.slice(0, 6);
    expect(first.map((a) => [a.attempt, a.statusCode, a.acknowledged])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
      [5, 500, false],
      [6, 200, true],
    ]);
    // retried after 1, 2, 4, 8, then 16 s
    const gaps = first.slice(1).map((a, i) => Date.parse(a.attemptedAt) - Date.parse(first[i].attemptedAt));
    expect(gaps.map((gap, i) => gap >= [1000, 2000, 4000, 8000, 16000][i])).toEqual([true, true, true, true, true]);
    expect(first.slice(0, 5).map((a) => Date.parse(a.nextAttemptAt!) - Date.parse(a.attemptedAt))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(first[0].response).toHaveLength(1024);
    expect(first[5]).toMatchObject({ response: 'thanks', error: null, eventId: sent[0].id });
  });

  it('loses nothing and repeats nothing acknowledged across a restart in the middle', async () => {
    await createWebhook();
    const sent = publish(30);
    answer = (call) => (call % 7 === 3 ? 503 : 200);
    await start().start();
    await runUntil(() => acknowledged().length >= 10);
    await dispatcher!.stop();
    const before = acknowledged().length;
    expect(before).toBeLessThan(30);

    await start().start();
    await runUntil(() => acknowledged().length === 30);
    expect(acknowledged()).toEqual(sent.map((event) => event.position));
    expect(new Set(acknowledged()).size).toBe(30);
  });

  it('delivers what was published while the service was stopped, and what comes after, once each', async () => {
    await createWebhook();
    await start().start();
    publish(3);
    await runUntil(() => acknowledged().length === 3);
    await dispatcher!.stop();
    publish(3);
    await start().start();
    publish(2);
    await runUntil(() => acknowledged().length === 8);
    expect(acknowledged()).toEqual(source.events.map((event) => event.position));
  });

  it('sends only the types it takes, and nothing of other organizations', async () => {
    await createWebhook({ types: ['space.created'] });
    publish(2, 'space.updated');
    const wanted = publish(1, 'space.created');
    publish(2, 'space.created', 'org2');
    const later = publish(1, 'space.created');
    await start().start();
    await runUntil(() => acknowledged().length === 2);
    expect(acknowledged()).toEqual([wanted[0].position, later[0].position]);
  });

  it('sends nothing while inactive, and resumes where it stopped when activated', async () => {
    await createWebhook({ active: false });
    const sent = publish(3);
    await start().start();
    await runUntil(() => false, 1000, 50).catch(() => undefined);
    expect(received).toHaveLength(0);
    await changeWebhook('UpdateWebhook', { active: true });
    await runUntil(() => acknowledged().length === 3);
    expect(acknowledged()).toEqual(sent.map((event) => event.position));
  });

  it('sends everything after a position again, in order, on a redelivery request', async () => {
    await createWebhook();
    const sent = publish(6);
    await start().start();
    await runUntil(() => acknowledged().length === 6);
    await changeWebhook('RequestWebhookRedelivery', { after: sent[2].position });
    await runUntil(() => acknowledged().length === 9);
    expect(acknowledged().slice(6)).toEqual(sent.slice(3).map((event) => event.position));
    // and then only new events
    const more = publish(1);
    await runUntil(() => acknowledged().length === 10);
    expect(acknowledged()[9]).toBe(more[0].position);
  });

  it('becomes failing after 24 hours of failures, keeps trying hourly, and is active again on success', async () => {
    await createWebhook();
    publish(2);
    answer = () => 500;
    await start().start();
    const failing = async () =>
      (await events.readStream(webhookDeliveryStream('wh1'))).some((event) => event.type === 'WebhookFailing');
    let isFailing = false;
    for (let i = 0; i < 400 && !isFailing; i++) {
      clock.advance(600_000);
      dispatcher!.wakeAll();
      await new Promise((resolve) => setTimeout(resolve, 2));
      isFailing = await failing();
    }
    expect(isFailing).toBe(true);
    const recorded = await attempts();
    const last = recorded[recorded.length - 1];
    expect(Date.parse(last.attemptedAt) - Date.parse(recorded[0].attemptedAt)).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse(last.nextAttemptAt!) - Date.parse(last.attemptedAt)).toBe(3_600_000);
    expect(acknowledged()).toEqual([]);

    answer = () => 200;
    await runUntil(() => acknowledged().length === 2, 600_000);
    const types = (await events.readStream(webhookDeliveryStream('wh1'))).map((event) => event.type);
    expect(types.filter((type) => type === 'WebhookFailing')).toHaveLength(1);
    expect(types).toContain('WebhookRecovered');
  });

  it('tries the event in hand at once when the address changes, instead of waiting out the delay', async () => {
    await createWebhook();
    publish(1);
    answer = () => 500;
    await start().start();
    // ten failures: the next try is 1024 s away
    await runUntil(() => received.length === 10, 1000);
    answer = () => 200;
    await changeWebhook('UpdateWebhook', { url: `http://127.0.0.1:${port}/moved` });
    const deadline = Date.now() + 2000;
    while (acknowledged().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(acknowledged()).toHaveLength(1);
    // the receiver has answered; the attempt is recorded just after
    let recorded = await attempts();
    while (recorded.length < 11 && Date.now() < deadline + 2000) {
      await new Promise((r) => setTimeout(r, 10));
      recorded = await attempts();
    }
    expect(Date.parse(recorded[10].attemptedAt)).toBeLessThan(Date.parse(recorded[9].nextAttemptAt!));
  });

  it('records a receiver that does not answer in time as a failed attempt with its error', async () => {
    await createWebhook();
    publish(1);
    answer = (call) => (call === 0 ? 'hang' : 200);
    await start(200).start();
    await runUntil(() => acknowledged().length === 1, 1000);
    const [timedOut] = await attempts();
    expect(timedOut).toMatchObject({ statusCode: null, acknowledged: false, response: null });
    expect(timedOut.error).toMatch(/did not answer within 200 ms/);
  });
});
