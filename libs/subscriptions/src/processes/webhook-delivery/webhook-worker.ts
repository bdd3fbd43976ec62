import { performance } from 'node:perf_hooks';
import {
  type Clock,
  type EventStore,
  FetchRefused,
  type Fetcher,
  type PublicEvent,
  type PublicEventSource,
  type SecretBox,
  handleCommand,
  loadState,
  newId,
} from '@app/kernel';
import {
  type RetryPolicy,
  type WebhookDeliveryCommand,
  type WebhookDeliveryState,
  webhookDeliveryDecider,
  webhookDeliveryStream,
} from '../../domain/webhook-delivery.decider';
import { secretContext, signWebhook } from '../../application/webhook-signature';
import { type WebhookConfig } from './webhook-config';

export interface DeliveryDependencies {
  events: EventStore;
  source: PublicEventSource;
  fetcher: Fetcher;
  clock: Clock;
  secretBox: SecretBox;
  policy: RetryPolicy;
  /** Longest real wait before the clock is looked at again (a test clock may have moved). */
  pollMs: number;
  logger: { error(message: string): void };
}

/** How much of an answer's body a delivery keeps. */
export const RESPONSE_BYTES = 1024;
const READ_BATCH = 100;

/**
 * Delivers one webhook's events, strictly in order: the next event goes out only once the one before was
 * acknowledged (2xx). Every attempt is recorded in the webhook's delivery stream before anything else happens,
 * so the cursor, the attempt count and the time of the next try survive a restart. An event acknowledged and
 * recorded is never sent again (unless a redelivery asks for it); one acknowledged just before a crash, before
 * its attempt was recorded, is sent once more (receivers drop it by its `webhook-id`).
 */
export class WebhookWorker {
  private state: WebhookDeliveryState = webhookDeliveryDecider.initialState();
  private secret: string;
  /** Events read ahead, after the cursor, oldest first. */
  private buffer: PublicEvent[] = [];
  /** Last position known to hold nothing for this webhook (types it does not take), beyond the cursor. */
  private scanned = -1n;
  private retryNow = false;
  private readonly stopping = new AbortController();
  private wakeup = new AbortController();
  private running?: Promise<void>;

  constructor(
    private config: WebhookConfig,
    private readonly deps: DeliveryDependencies,
  ) {
    this.secret = this.openSecret(config);
  }

  get webhookId(): string {
    return this.config.webhookId;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** New settings: a new address or a reactivation tries the event in hand at once. */
  update(config: WebhookConfig): void {
    const before = this.config;
    this.config = config;
    if (config.sealedSecret !== before.sealedSecret) this.secret = this.openSecret(config);
    if (config.url !== before.url || (config.active && !before.active)) this.retryNow = true;
    if (config.types.join() !== before.types.join()) this.forgetReadAhead();
    this.wake();
  }

  /** Looks at the clock and the source again now (tests call it after moving their clock). */
  wake(): void {
    const current = this.wakeup;
    this.wakeup = new AbortController();
    current.abort();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake();
    await this.running;
  }

  private async run(): Promise<void> {
    const stream = webhookDeliveryStream(this.config.webhookId);
    while (!this.stopping.signal.aborted) {
      try {
        this.state = (await loadState(this.deps.events, webhookDeliveryDecider, stream)).state;
        while (!this.stopping.signal.aborted) await this.step();
      } catch (error) {
        this.deps.logger.error(`webhook ${this.config.webhookId}: delivery step failed: ${String(error)}`);
        this.forgetReadAhead();
        await this.sleep(1000);
      }
    }
  }

  private async step(): Promise<void> {
    const config = this.config;
    if (config.deleted) return this.stopping.abort();
    for (const { request, after } of config.redeliveries) {
      if (request <= this.state.lastRedelivery) continue;
      await this.decide({
        type: 'StartRedelivery',
        data: {
          webhookId: config.webhookId,
          organizationId: config.organizationId,
          after,
          request,
          origin: config.origin,
        },
        metadata: { now: this.deps.clock.now().toISOString() },
      });
      this.forgetReadAhead();
      this.retryNow = true;
    }
    if (!config.active) return this.sleep(Infinity);
    const pending = this.state.pending;
    if (pending && !this.retryNow) {
      const wait = Date.parse(pending.nextAttemptAt) - this.deps.clock.now().getTime();
      if (wait > 0) return this.sleep(Math.min(wait, this.deps.pollMs));
    }
    const next = await this.nextEvent();
    if (next) await this.deliver(next);
  }

  /** The first event after the cursor that this webhook takes; null after waiting for more. */
  private async nextEvent(): Promise<PublicEvent | null> {
    const cursor = BigInt(this.state.cursor ?? this.config.origin);
    const from = cursor > this.scanned ? cursor : this.scanned;
    while (this.buffer.length > 0 && BigInt(this.buffer[0].position) <= from) this.buffer.shift();
    if (this.buffer.length === 0) {
      // every public event up to `projected` is readable now: if none of them is after `from`, none ever will be
      const projected = this.deps.source.position();
      const read = await this.deps.source.read(this.config.organizationId, { after: from, limit: READ_BATCH });
      if (read.length === 0) {
        if (projected > this.scanned) this.scanned = projected;
        const waitFrom = projected > from ? projected : from;
        await this.deps.source.waitAfter(waitFrom, AbortSignal.any([this.stopping.signal, this.wakeup.signal]));
        return null;
      }
      this.buffer = read.map((stored) => stored.event);
    }
    const types = this.config.types;
    while (this.buffer.length > 0 && types.length > 0 && !types.includes(this.buffer[0].type)) {
      this.scanned = BigInt(this.buffer.shift()!.position);
    }
    return this.buffer[0] ?? null;
  }

  private async deliver(event: PublicEvent): Promise<void> {
    const { webhookId, organizationId, url } = this.config;
    const body = JSON.stringify(event);
    const now = this.deps.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(this.secret, event.id, timestamp, body),
    };
    // cleared before sending: a change of settings while this attempt is out asks for another try at once
    this.retryNow = false;
    let statusCode: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    const started = performance.now();
    try {
      const answer = await this.deps.fetcher.send(url, {
        method: 'POST',
        headers,
        body,
        maxResponseBytes: RESPONSE_BYTES,
      });
      statusCode = answer.status;
      response = answer.body.toString('utf8');
    } catch (failure) {
      error = failure instanceof FetchRefused ? failure.message : 'the delivery failed';
    }
    const durationMs = Math.round(performance.now() - started);
    await this.decide({
      type: 'RecordDeliveryAttempt',
      data: {
        webhookId,
        organizationId,
        outcome: {
          deliveryId: newId(),
          eventId: event.id,
          position: event.position,
          attemptedAt: now.toISOString(),
          statusCode,
          durationMs,
          response,
          error,
        },
        policy: this.deps.policy,
      },
      metadata: { now: now.toISOString(), causationId: event.id },
    });
  }

  private async decide(command: WebhookDeliveryCommand): Promise<void> {
    const stream = webhookDeliveryStream(this.config.webhookId);
    this.state = (await handleCommand(this.deps.events, webhookDeliveryDecider, stream, command)).state;
  }

  private forgetReadAhead(): void {
    this.buffer = [];
    this.scanned = -1n;
  }

  private openSecret(config: WebhookConfig): string {
    return this.deps.secretBox.open(config.sealedSecret, secretContext(config.webhookId)).secret;
  }

  /** Waits `ms` (Infinity: until woken), or less when woken or stopped. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = AbortSignal.any([this.stopping.signal, this.wakeup.signal]);
      if (signal.aborted) return resolve();
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
