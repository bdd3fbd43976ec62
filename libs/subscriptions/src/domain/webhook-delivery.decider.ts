import { type Command, type Decider, type DomainEvent, IllegalState, assertNever } from '@app/kernel/domain';

/**
 * The delivery schedule of one webhook, in its own stream `webhookdelivery-<webhookId>`: every attempt, where the
 * webhook stands (the last acknowledged position), how many times the event in hand has failed and when it is
 * tried next. A service that starts again folds this stream and carries on exactly where it was.
 */
export const webhookDeliveryStream = (webhookId: string) => `webhookdelivery-${webhookId}`;

/** How failures are retried: `baseMs`, then doubling up to `maxMs` between tries; failing after `failingAfterMs`. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  failingAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 1000, maxMs: 3_600_000, failingAfterMs: 86_400_000 };

type Ids = { webhookId: string; organizationId: string };

/** What one attempt to deliver one event gave. `statusCode` is null when no answer came (error, timeout). */
export type AttemptOutcome = {
  deliveryId: string;
  eventId: string;
  position: string;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KB of the answer's body. */
  response: string | null;
  error: string | null;
};

export type RecordDeliveryAttempt = Command<
  'RecordDeliveryAttempt',
  Ids & { outcome: AttemptOutcome; policy: RetryPolicy }
>;
/**
 * Apply a redelivery the webhook's stream asked for (`request` is that event's revision there, so each request is
 * applied once). `origin` is where the webhook started: the position of its creation.
 */
export type StartRedelivery = Command<'StartRedelivery', Ids & { after: string; request: number; origin: string }>;

export type WebhookDeliveryCommand = RecordDeliveryAttempt | StartRedelivery;

export type WebhookDeliveryAttempted = DomainEvent<
  'WebhookDeliveryAttempted',
  Ids & AttemptOutcome & { attempt: number; acknowledged: boolean; nextAttemptAt?: string }
>;
/** Deliveries have failed for longer than the policy allows: the webhook's status becomes `failing`. */
export type WebhookFailing = DomainEvent<'WebhookFailing', Ids & { failingSince: string; failingAt: string }>;
/** A delivery succeeded again: the webhook's status is back to `active`. */
export type WebhookRecovered = DomainEvent<'WebhookRecovered', Ids & { recoveredAt: string }>;
export type WebhookRedeliveryStarted = DomainEvent<
  'WebhookRedeliveryStarted',
  Ids & { after: string; request: number; cursor: string }
>;

export type WebhookDeliveryEvent =
  WebhookDeliveryAttempted | WebhookFailing | WebhookRecovered | WebhookRedeliveryStarted;

export interface WebhookDeliveryState {
  /** Last acknowledged position; null until the first acknowledgement (the webhook's creation is the origin). */
  cursor: string | null;
  /** The event being retried, its failed attempts so far, when it first failed and when it is tried next. */
  pending: { position: string; attempts: number; firstFailedAt: string; nextAttemptAt: string } | null;
  failing: boolean;
  /** Revision (in the webhook's stream) of the last redelivery request applied; -1 for none. */
  lastRedelivery: number;
}

const isAcknowledged = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode <= 299;

/** Delay after the n-th consecutive failure (1-based): base, 2×base, 4×base … at most `maxMs`. */
export function retryDelay(failures: number, policy: RetryPolicy): number {
  return Math.min(policy.baseMs * 2 ** Math.min(failures - 1, 40), policy.maxMs);
}

const later = (a: string, b: string) => (BigInt(a) > BigInt(b) ? a : b);
const earlier = (a: string, b: string) => (BigInt(a) < BigInt(b) ? a : b);

function decide(command: WebhookDeliveryCommand, state: WebhookDeliveryState): WebhookDeliveryEvent[] {
  const { webhookId, organizationId } = command.data;
  const ids = { webhookId, organizationId };
  switch (command.type) {
    case 'RecordDeliveryAttempt': {
      const { outcome, policy } = command.data;
      if (state.cursor !== null && BigInt(outcome.position) <= BigInt(state.cursor)) {
        throw new IllegalState(`position ${outcome.position} was already acknowledged`);
      }
      const retrying = state.pending?.position === outcome.position ? state.pending : null;
      const attempt = (retrying?.attempts ?? 0) + 1;
      if (isAcknowledged(outcome.statusCode)) {
        return [
          { type: 'WebhookDeliveryAttempted', data: { ...ids, ...outcome, attempt, acknowledged: true } },
          ...(state.failing
            ? [{ type: 'WebhookRecovered' as const, data: { ...ids, recoveredAt: outcome.attemptedAt } }]
            : []),
        ];
      }
      const at = Date.parse(outcome.attemptedAt);
      const nextAttemptAt = new Date(at + retryDelay(attempt, policy)).toISOString();
      const firstFailedAt = retrying?.firstFailedAt ?? outcome.attemptedAt;
      const overdue = at - Date.parse(firstFailedAt) >= policy.failingAfterMs;
      return [
        {
          type: 'WebhookDeliveryAttempted',
          data: { ...ids, ...outcome, attempt, acknowledged: false, nextAttemptAt },
        },
        ...(overdue && !state.failing
          ? [
              {
                type: 'WebhookFailing' as const,
                data: { ...ids, failingSince: firstFailedAt, failingAt: outcome.attemptedAt },
              },
            ]
          : []),
      ];
    }
    case 'StartRedelivery': {
      const { after, request, origin } = command.data;
      if (request <= state.lastRedelivery) return [];
      // Moving forward would skip events never acknowledged: a redelivery only ever moves the cursor back.
      const cursor = earlier(state.cursor ?? origin, after);
      return [{ type: 'WebhookRedeliveryStarted', data: { ...ids, after, request, cursor } }];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryAttempted': {
      const { position, acknowledged, attemptedAt, nextAttemptAt } = event.data;
      if (acknowledged) {
        return { ...state, cursor: state.cursor === null ? position : later(state.cursor, position), pending: null };
      }
      const retrying = state.pending?.position === position ? state.pending : null;
      return {
        ...state,
        pending: {
          position,
          attempts: event.data.attempt,
          firstFailedAt: retrying?.firstFailedAt ?? attemptedAt,
          nextAttemptAt: nextAttemptAt ?? attemptedAt,
        },
      };
    }
    case 'WebhookFailing':
      return { ...state, failing: true };
    case 'WebhookRecovered':
      return { ...state, failing: false };
    case 'WebhookRedeliveryStarted':
      return { ...state, cursor: event.data.cursor, pending: null, lastRedelivery: event.data.request };
    default:
      return assertNever(event);
  }
}

export const webhookDeliveryDecider: Decider<WebhookDeliveryState, WebhookDeliveryCommand, WebhookDeliveryEvent> = {
  initialState: () => ({ cursor: null, pending: null, failing: false, lastRedelivery: -1 }),
  decide,
  evolve,
};

export const WEBHOOK_DELIVERY_EVENTS = [
  'WebhookDeliveryAttempted',
  'WebhookFailing',
  'WebhookRecovered',
  'WebhookRedeliveryStarted',
] as const;
