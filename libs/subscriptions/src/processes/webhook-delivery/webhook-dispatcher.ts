import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  FETCHER,
  type FindCursor,
  type Fetcher,
  PUBLIC_EVENT_SOURCE,
  type PublicEventSource,
  READ_STORE,
  RUNTIME_OPTIONS,
  type ReadStore,
  Runtime,
  type RuntimeOptions,
  SECRET_BOX,
  type SecretBox,
  type Subscription,
} from '@app/kernel';
import { WEBHOOK_EVENTS } from '../../domain/webhook.decider';
import { WEBHOOKS, type WebhookDoc } from '../../application/webhook-read-models';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../../application/webhook-settings';
import { readWebhookConfig } from './webhook-config';
import { type DeliveryDependencies, WebhookWorker } from './webhook-worker';

const CONFIG_EVENTS = new Set<string>(WEBHOOK_EVENTS);

/**
 * Runs one worker per webhook. The webhooks that exist at start-up come from the `webhooks` read model (caught up
 * to the head of the store first); changes after that head come from a live subscription to the store, and each
 * one makes the worker of that webhook read its settings again from the webhook's stream. Where each webhook
 * stands is in its delivery stream, which the worker folds when it starts: nothing is kept only in memory.
 */
export class WebhookDispatcher {
  private readonly workers = new Map<string, WebhookWorker>();
  private subscription?: Subscription;
  private following?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly deps: DeliveryDependencies,
    private readonly listWebhooks: () => Promise<string[]>,
  ) {}

  async start(): Promise<void> {
    const head = await this.deps.events.headPosition();
    for (const webhookId of await this.listWebhooks()) await this.refresh(webhookId);
    if (this.stopped) return;
    this.subscription = this.deps.events.subscribeToAll({ after: head, batchSize: 500 });
    this.following = this.follow(this.subscription);
  }

  /** Every worker looks at the clock again now (tests call it after moving their clock). */
  wakeAll(): void {
    for (const worker of this.workers.values()) worker.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close();
    await this.following;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
    this.workers.clear();
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const batch of subscription) {
        const changed = new Set<string>();
        for (const event of batch) if (CONFIG_EVENTS.has(event.type)) changed.add(String(event.data.webhookId));
        for (const webhookId of changed) await this.refresh(webhookId);
      }
    } catch (error) {
      this.deps.logger.error(`webhook dispatcher stopped following the store: ${String(error)}`);
    }
  }

  private async refresh(webhookId: string): Promise<void> {
    if (this.stopped) return;
    const config = await readWebhookConfig(this.deps.events, webhookId);
    const worker = this.workers.get(webhookId);
    if (!config || config.deleted) {
      this.workers.delete(webhookId);
      await worker?.stop();
      return;
    }
    if (worker) return worker.update(config);
    const started = new WebhookWorker(config, this.deps);
    this.workers.set(webhookId, started);
    started.start();
  }
}

/**
 * The Nest side: starts the dispatcher once the runtime's projections run (the API process only, and only when a
 * public event source is provided), and stops it before the stores close.
 */
@Injectable()
export class WebhookDelivery implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private dispatcher?: WebhookDispatcher;
  private starting?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(FETCHER) private readonly fetcher: Fetcher,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(RUNTIME_OPTIONS) private readonly runtimeOptions: RuntimeOptions,
    private readonly runtime: Runtime,
    @Optional() @Inject(PUBLIC_EVENT_SOURCE) private readonly source?: PublicEventSource,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.runtimeOptions.runProjections) return;
    if (!this.source) {
      this.logger.warn('no public event source is provided: webhooks deliver nothing');
      return;
    }
    const source = this.source;
    this.starting = this.start(source).catch((error: unknown) =>
      this.logger.error(`webhook delivery did not start: ${String(error)}`),
    );
  }

  /** Every worker looks at the clock again now. */
  wakeAll(): void {
    this.dispatcher?.wakeAll();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.starting;
    await this.dispatcher?.stop();
  }

  private async start(source: PublicEventSource): Promise<void> {
    const logger = { error: (message: string) => this.logger.error(message) };
    this.dispatcher = new WebhookDispatcher(
      {
        events: this.events,
        source,
        fetcher: this.fetcher,
        clock: this.clock,
        secretBox: this.secretBox,
        policy: this.settings.retry,
        pollMs: 30_000,
        logger,
      },
      () => this.existingWebhooks(),
    );
    await this.dispatcher.start();
  }

  /** Every webhook of the read model, once it has caught up with the store. */
  private async existingWebhooks(): Promise<string[]> {
    for (;;) {
      if (this.stopped) return [];
      try {
        void this.runtime.projections; // throws until the runtime has started them
        await this.runtime.catchUp([WEBHOOKS]);
        break;
      } catch {
        // the runtime has not started its projections yet, or they are still catching up
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const ids: string[] = [];
    let after: FindCursor | undefined;
    do {
      const page = await this.reads.find<WebhookDoc>(WEBHOOKS, { limit: 1000, sort: [['createdAt', 1]], after });
      ids.push(...page.items.map((doc) => doc.id));
      after = page.next;
    } while (after);
    return ids;
  }
}
