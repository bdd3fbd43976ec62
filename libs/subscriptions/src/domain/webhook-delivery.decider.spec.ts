import { at, given } from '@app/kernel/testing';
import {
  type AttemptOutcome,
  type RetryPolicy,
  type WebhookDeliveryEvent,
  retryDelay,
  webhookDeliveryDecider,
} from './webhook-delivery.decider';

const ids = { webhookId: 'wh1', organizationId: 'org1' };
const policy: RetryPolicy = { baseMs: 1000, maxMs: 3_600_000, failingAfterMs: 86_400_000 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

const outcome = (position: string, ms: number, statusCode: number | null, n = 1): AttemptOutcome => ({
  deliveryId: `d${position}-${n}`,
  eventId: `e${position}`,
  position,
  attemptedAt: iso(ms),
  statusCode,
  durationMs: 3,
  response: statusCode === null ? null : 'ok',
  error: statusCode === null ? 'no answer within 10000 ms' : null,
});
const record = (o: AttemptOutcome) => ({
  type: 'RecordDeliveryAttempt' as const,
  data: { ...ids, outcome: o, policy },
  metadata: at(o.attemptedAt),
});
const attempted = (o: AttemptOutcome, attempt: number, nextAttemptAt?: string): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    ...ids,
    ...o,
    attempt,
    acknowledged: nextAttemptAt === undefined,
    ...(nextAttemptAt ? { nextAttemptAt } : {}),
  },
});

describe('webhook delivery decider', () => {
  it('acknowledges a 2xx answer and moves the cursor', () => {
    const ok = outcome('10', 0, 204);
    given(webhookDeliveryDecider)
      .when(record(ok))
      .then([attempted(ok, 1)]);
    given(webhookDeliveryDecider, [attempted(ok, 1)]).thenState({
      cursor: '10',
      pending: null,
      failing: false,
      lastRedelivery: -1,
    });
  });

  it('retries a failure after 1 s, then 2, 4, 8 s', () => {
    const history: WebhookDeliveryEvent[] = [];
    let ms = 0;
    for (const [n, delay] of [1000, 2000, 4000, 8000].entries()) {
      const failed = outcome('10', ms, n % 2 === 0 ? 500 : null, n + 1);
      const expected = attempted(failed, n + 1, iso(ms + delay));
      given(webhookDeliveryDecider, history).when(record(failed)).then([expected]);
      history.push(expected);
      ms += delay;
    }
    given(webhookDeliveryDecider, history).thenState({
      cursor: null,
      pending: { position: '10', attempts: 4, firstFailedAt: iso(0), nextAttemptAt: iso(15_000) },
      failing: false,
      lastRedelivery: -1,
    });
  });

  it('never waits more than the maximum between tries', () => {
    expect(retryDelay(12, policy)).toBe(2048 * 1000);
    expect(retryDelay(13, policy)).toBe(3_600_000);
    expect(retryDelay(500, policy)).toBe(3_600_000);
  });

  it('marks the webhook failing once an event has failed for 24 hours, once', () => {
    const first = outcome('10', 0, 500);
    const history = [attempted(first, 1, iso(1000))];
    const late = outcome('10', 86_400_000, 503, 2);
    const failing: WebhookDeliveryEvent = {
      type: 'WebhookFailing',
      data: { ...ids, failingSince: iso(0), failingAt: iso(86_400_000) },
    };
    given(webhookDeliveryDecider, history)
      .when(record(late))
      .then([attempted(late, 2, iso(86_400_000 + 2000)), failing]);
    const again = outcome('10', 90_000_000, 503, 3);
    given(webhookDeliveryDecider, [...history, attempted(late, 2, iso(86_402_000)), failing])
      .when(record(again))
      .then([attempted(again, 3, iso(90_000_000 + 4000))]);
  });

  it('turns a failing webhook back to active on the next success', () => {
    const failing: WebhookDeliveryEvent = {
      type: 'WebhookFailing',
      data: { ...ids, failingSince: iso(0), failingAt: iso(86_400_000) },
    };
    const ok = outcome('10', 90_000_000, 200, 9);
    given(webhookDeliveryDecider, [attempted(outcome('10', 0, 500), 1, iso(1000)), failing])
      .when(record(ok))
      .then([attempted(ok, 2), { type: 'WebhookRecovered', data: { ...ids, recoveredAt: iso(90_000_000) } }]);
  });

  it('counts attempts per event: the next event starts again at attempt 1', () => {
    const history = [attempted(outcome('10', 0, 500), 1, iso(1000)), attempted(outcome('10', 1000, 200, 2), 2)];
    const next = outcome('11', 2000, 500);
    given(webhookDeliveryDecider, history)
      .when(record(next))
      .then([attempted(next, 1, iso(3000))]);
  });

  it('refuses to record an attempt at a position already acknowledged', () => {
    given(webhookDeliveryDecider, [attempted(outcome('10', 0, 200), 1)])
      .when(record(outcome('9', 10, 200)))
      .thenThrows('illegal-state', /already acknowledged/);
  });

  it('moves the cursor back for a redelivery, once per request, never forward', () => {
    const start = (after: string, request: number) => ({
      type: 'StartRedelivery' as const,
      data: { ...ids, after, request, origin: '5' },
      metadata: at(iso(0)),
    });
    const acked = attempted(outcome('10', 0, 200), 1);
    const started: WebhookDeliveryEvent = {
      type: 'WebhookRedeliveryStarted',
      data: { ...ids, after: '7', request: 3, cursor: '7' },
    };
    given(webhookDeliveryDecider, [acked]).when(start('7', 3)).then([started]);
    given(webhookDeliveryDecider, [acked, started]).when(start('7', 3)).thenNothing();
    given(webhookDeliveryDecider, [acked])
      .when(start('50', 4))
      .then([{ type: 'WebhookRedeliveryStarted', data: { ...ids, after: '50', request: 4, cursor: '10' } }]);
    given(webhookDeliveryDecider)
      .when(start('0', 1))
      .then([{ type: 'WebhookRedeliveryStarted', data: { ...ids, after: '0', request: 1, cursor: '0' } }]);
    given(webhookDeliveryDecider, [attempted(outcome('11', 0, 500), 1, iso(1000)), started]).thenState({
      cursor: '7',
      pending: null,
      failing: false,
      lastRedelivery: 3,
    });
  });
});
