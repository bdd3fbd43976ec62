import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  EVENT_STORE,
  type EventStore,
  type GlobalPosition,
  type Json,
  PROJECTION_REBUILD_REQUESTED,
  type ParkedEvent,
  type ProjectionRebuildRequested,
  READ_STORE,
  RUNTIME_OPTIONS,
  type ReadStore,
  type RebuildState,
  type RecordedEvent,
  type RuntimeOptions,
  SEARCH_INDEX,
  START,
  type SearchIndex,
  type Subscription,
  TimedOut,
  positionFromString,
  positionToString,
} from '@app/kernel';
import { type SpaceCreated, type SpacePurged, type SpaceRevisionChanged } from '../../domain';
import { reindexSpace } from '../../projections/search-pages';
import { loadRevision } from '../publish-revision';

/** The projection's name (in `projections status` and `projections rebuild`) and the version of what it builds. */
export const SEARCH_PROJECTION = 'search-index';
const VERSION = 3; // the search index file format (3: words stemmed in the service, one FTS5 table); an older index is emptied and replayed
/** The index in service, and the one a rebuild fills before it takes its place. */
export const SEARCH_PAGES = 'pages';
const ASIDE = 'pages_rebuild';
const CHECKPOINT = `projection:${SEARCH_PROJECTION}`;
const HANDLES = new Set(['SpaceCreated', 'SpaceRevisionChanged', 'SpacePurged']);
const BATCH = 500;
const MAX_ATTEMPTS = 3;
const BACKOFF_MS = 50;
const MAX_PARKED_KEPT = 100;
/** A batch with nothing for the index moves the checkpoint at most this long after (or at shutdown). */
const CHECKPOINT_LAG_MS = 1000;

interface CheckpointState {
  version: number;
  parked: ParkedEvent[];
  rebuiltFor: string;
  rebuild?: RebuildState;
}

/**
 * The search projection: keeps the search index equal to the live revision of every space. It is a projection
 * like the others (checkpointed, rebuilt by `projections rebuild search-index`, parking an event that keeps
 * failing) but writes to the search index instead of the read store, so it runs its own loop over the global
 * order. Its checkpoint is kept in the read store beside the others', in the same shape, so the CLI shows and
 * rebuilds it like any projection. Index writes are idempotent (a page is replaced whole, an unchanged one left
 * alone), so the events between the last index write and a checkpoint written after it can be applied again
 * after a crash with the same result.
 *
 * Revisions are immutable: the pages of a space's new live revision are read from the revision's own stream.
 * Deleted, restored and transferred spaces need nothing here: queries search only the spaces the caller can read
 * now, from the spaces read model. A purged space leaves the index.
 */
@Injectable()
export class SearchIndexer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SearchIndexer');
  private position: GlobalPosition = START;
  private state: CheckpointState = { version: VERSION, parked: [], rebuiltFor: positionToString(START) };
  private subscription?: Subscription;
  private loop?: Promise<void>;
  /** Index writes and checkpoints happen one at a time: the live loop and the end of a rebuild take turns. */
  private queue: Promise<unknown> = Promise.resolve();
  private rebuilding?: Promise<void>;
  private waiters: { position: GlobalPosition; resolve: () => void }[] = [];
  private running = false;
  /** The position of the checkpoint last written, and when. */
  private saved: { position: GlobalPosition; at: number } = { position: START, at: 0 };
  private saveTimer?: NodeJS.Timeout;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(SEARCH_INDEX) private readonly index: SearchIndex,
    @Inject(RUNTIME_OPTIONS) private readonly options: RuntimeOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.runProjections) return;
    this.running = true;
    const checkpoint = await this.store.getCheckpoint(CHECKPOINT);
    const stored = checkpoint?.state as unknown as CheckpointState | undefined;
    if (!checkpoint || stored?.version !== VERSION) {
      if (checkpoint) this.logger.log(`version ${String(stored?.version)} → ${VERSION}, rebuilding`);
      await this.index.dropIndex(SEARCH_PAGES);
      this.position = START;
      this.state = { version: VERSION, parked: [], rebuiltFor: positionToString(await this.events.headPosition()) };
    } else {
      this.position = checkpoint.position;
      this.state = { ...stored, parked: stored.parked ?? [] };
    }
    await this.index.ensureIndex(SEARCH_PAGES);
    this.subscription = this.events.subscribeToAll({ after: this.position, batchSize: BATCH });
    this.loop = this.follow(this.subscription);
    if (this.state.rebuild && this.state.rebuild.state !== 'done') this.startRebuild();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.subscription?.close();
    await this.loop;
    await this.rebuilding?.catch(() => undefined);
    clearTimeout(this.saveTimer);
    await this.turn(() => this.saveIfBehind());
  }

  /**
   * Read-your-writes for search: resolves once the index reflects everything the event store held when called
   * (so every write that answered before). Bounded like `settle`: a timeout is an error, never a stale answer.
   */
  async catchUp(timeoutMs = this.options.settleTimeoutMs ?? 5000): Promise<void> {
    if (!this.running) return;
    const head = await this.events.headPosition();
    if (this.position >= head) return;
    await new Promise<void>((resolve, reject) => {
      const waiter = { position: head, resolve: () => undefined as void };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new TimedOut('the search index did not catch up with the latest changes in time'));
      }, timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const delivered of subscription) {
        const batch = delivered.filter((event) => event.position > this.position);
        if (batch.length === 0) continue;
        await this.turn(async () => {
          await this.apply(SEARCH_PAGES, batch);
          this.noteRebuildRequests(batch);
          this.position = batch[batch.length - 1].position;
          const concerned = batch.some(
            (event) => HANDLES.has(event.type) || event.type === PROJECTION_REBUILD_REQUESTED,
          );
          if (concerned || Date.now() - this.saved.at >= CHECKPOINT_LAG_MS) await this.saveCheckpoint();
          else this.saveLater();
        });
        this.notify();
        if (this.state.rebuild?.state === 'pending') this.startRebuild();
      }
    } catch (error) {
      if (this.running) this.logger.error(`stopped following the event store: ${(error as Error).message}`);
    }
  }

  private turn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private notify(): void {
    const pending = [];
    for (const waiter of this.waiters) {
      if (this.position >= waiter.position) waiter.resolve();
      else pending.push(waiter);
    }
    this.waiters = pending;
  }

  /** Applies a batch to an index, event by event; an event that keeps failing is parked, never skipped silently. */
  private async apply(index: string, batch: readonly RecordedEvent[]): Promise<void> {
    for (const event of batch) {
      if (!HANDLES.has(event.type)) continue;
      for (let attempt = 1; ; attempt++) {
        try {
          await this.applyOne(index, event);
          break;
        } catch (error) {
          if (attempt < MAX_ATTEMPTS) {
            await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * 2 ** (attempt - 1)));
            continue;
          }
          this.park(event, error);
          break;
        }
      }
    }
  }

  private async applyOne(index: string, event: RecordedEvent): Promise<void> {
    if (event.type === 'SpacePurged') {
      const data = event.data as SpacePurged['data'];
      await this.index.write(index, [{ kind: 'deleteSpace', spaceId: data.spaceId }]);
      return;
    }
    const data = event.data as SpaceCreated['data'] | SpaceRevisionChanged['data'];
    const changedAt = 'changedAt' in data ? data.changedAt : data.createdAt;
    const revision = await loadRevision(this.events, data.revisionId, data.spaceId);
    const ops = reindexSpace(data.spaceId, revision.pages, await this.index.pagesOf(index, data.spaceId), changedAt);
    if (ops.length > 0) await this.index.write(index, ops);
  }

  private park(event: RecordedEvent, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.state.parked = [
      ...this.state.parked,
      {
        position: positionToString(event.position),
        eventId: event.id,
        type: event.type,
        error: message,
        parkedAt: new Date().toISOString(),
      },
    ].slice(-MAX_PARKED_KEPT);
    this.logger.error(`parked event ${event.id} (${event.type}): ${message}`);
  }

  private noteRebuildRequests(batch: readonly RecordedEvent[]): void {
    for (const event of batch) {
      if (event.type !== PROJECTION_REBUILD_REQUESTED) continue;
      const wanted = (event.data as unknown as ProjectionRebuildRequested).projections;
      if (wanted !== 'all' && !(Array.isArray(wanted) && wanted.includes(SEARCH_PROJECTION))) continue;
      if (event.position <= positionFromString(this.state.rebuiltFor)) continue;
      const current = this.state.rebuild;
      this.state.rebuild =
        current?.state === 'running'
          ? { ...current, position: positionToString(event.position) }
          : { state: 'pending', position: positionToString(event.position) };
    }
  }

  private async saveCheckpoint(): Promise<void> {
    const position = this.position;
    await this.store.write([], [{ name: CHECKPOINT, position, state: this.state as unknown as Json }]);
    this.saved = { position, at: Date.now() };
  }

  private async saveIfBehind(): Promise<void> {
    if (this.position > this.saved.position) await this.saveCheckpoint();
  }

  /** Batches of no concern to the index leave the checkpoint behind; it follows them a little later. */
  private saveLater(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      if (!this.running) return;
      this.turn(() => this.saveIfBehind()).catch((error: unknown) =>
        this.logger.warn(`could not write the checkpoint: ${(error as Error).message}`),
      );
    }, CHECKPOINT_LAG_MS);
    this.saveTimer.unref();
  }

  private startRebuild(): void {
    if (this.rebuilding) return;
    this.rebuilding = this.rebuild()
      .catch((error: unknown) => this.logger.error(`rebuild failed: ${(error as Error).message}`))
      .finally(() => {
        this.rebuilding = undefined;
      });
  }

  /**
   * Replays every event into an index aside while the one in service keeps answering and following; once the
   * replay has caught up with the live loop, the rebuilt index takes the place of the one in service.
   */
  async rebuild(): Promise<void> {
    const head = await this.events.headPosition();
    const asked = this.state.rebuild;
    this.state.rebuild = {
      state: 'running',
      position: asked && asked.state !== 'done' ? asked.position : positionToString(head),
      head: positionToString(head),
    };
    this.logger.log('rebuilding from the start');
    await this.index.dropIndex(ASIDE);
    await this.index.ensureIndex(ASIDE);
    let replayed: GlobalPosition = START;
    const replayUpTo = async (until: GlobalPosition) => {
      while (replayed < until) {
        const batch = (await this.events.readAll({ after: replayed, maxCount: BATCH })).filter(
          (event) => event.position <= until,
        );
        if (batch.length === 0) break;
        await this.apply(ASIDE, batch);
        replayed = batch[batch.length - 1].position;
      }
    };
    await replayUpTo(head);
    await this.turn(async () => {
      await replayUpTo(this.position);
      await this.index.replaceIndex(SEARCH_PAGES, ASIDE);
      const satisfied = positionFromString(this.state.rebuild?.position ?? positionToString(head));
      this.state.rebuiltFor = positionToString(satisfied > head ? satisfied : head);
      this.state.rebuild = { ...this.state.rebuild!, state: 'done' };
      await this.saveCheckpoint();
      this.logger.log(`rebuilt, in service at ${positionToString(this.position)}`);
    });
  }
}
