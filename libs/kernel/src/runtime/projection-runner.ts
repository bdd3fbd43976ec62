import rfdc from 'rfdc';
import { TimedOut } from '../domain/errors';
import {
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
  type Subscription,
  START,
  positionFromString,
  positionToString,
} from '../ports/event-store.port';
import { type Checkpoint, type Doc, type Json, type ReadStore, type WriteOp } from '../ports/read-store.port';
import { PROJECTION_REBUILD_REQUESTED, type ProjectionRebuildRequested } from './operations';
import { type Projection } from './projection';

export interface ParkedEvent {
  position: string;
  eventId: string;
  type: string;
  error: string;
  parkedAt: string;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  /** Position of the last event this projection has taken into account (null: nothing yet). */
  checkpoint: string | null;
  /** Events stored after the checkpoint (counted up to `LAG_CAP`; `lagCapped` says when there are more). */
  lag: number;
  lagCapped: boolean;
  parked: ParkedEvent[];
  state: 'running' | 'rebuilding' | 'stopped';
  /** The last rebuild asked for (by an operator or through `rebuild`), while it waits, runs, or once it is done. */
  rebuild?: RebuildState;
}

/**
 * A rebuild of one projection, kept in its checkpoint so that a crash never drops it: `pending` from the batch
 * that read the request (written with the checkpoint that moves past it), `running` once the replay aside has
 * begun, `done` once the rebuilt collection is in service. A service that starts with a rebuild pending or
 * running starts it (again) from the beginning. `position` is the last request it satisfies; `head` the head of
 * the store when the replay began.
 */
export interface RebuildState {
  state: 'pending' | 'running' | 'done';
  position: string;
  head?: string;
}

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** Attempts for a failing event (or a failing write) before the event is parked. */
  maxAttempts?: number;
  /** Base back-off between attempts, doubled each time. */
  backoffMs?: number;
  logger?: { warn(message: string): void; error(message: string): void; log?(message: string): void };
}

interface Lane {
  position: GlobalPosition;
  projections: Projection[];
  subscription?: Subscription;
  done?: Promise<void>;
  /** The batch being applied, if any: taking a projection out of the lane waits for it. */
  busy?: Promise<void>;
  /** Set while the lane rebuilds one projection into a collection aside, before that replaces the one in service. */
  aside?: Aside;
  /** The write of checkpoints that fell behind, if one runs: the next batch waits for it. */
  flushing?: Promise<void>;
  flushTimer?: NodeJS.Timeout;
}

interface Aside {
  projection: Projection;
  collection: string;
  parked: ParkedEvent[];
  /** The head when the rebuild began: the requests it satisfies. */
  rebuiltFor: GlobalPosition;
  finished: { promise: Promise<void>; resolve(): void; reject(error: Error): void };
}

interface CheckpointState {
  version: number;
  parked: ParkedEvent[];
  /**
   * The head of the store when the projection last started from nothing: rebuild requests recorded at or before
   * it are already satisfied (without it, a replay would meet its own request again).
   */
  rebuiltFor?: string;
  rebuild?: RebuildState;
}

interface Waiter {
  position: GlobalPosition;
  names: readonly string[] | null;
  resolve: () => void;
}

const LAG_CAP = 10_000;
const MAX_PARKED_KEPT = 100;
/**
 * A batch writes the checkpoints of the projections it changed (and of those whose state changed); the others'
 * follow at most this long after. Documents carry their positions, so a checkpoint that lags only means events
 * read again (and found already applied, or of no concern) after a crash.
 */
const CHECKPOINT_LAG_MS = 1000;

/**
 * The copy of a document a projection's `evolve` receives, free to change (stored documents are shared and
 * frozen). Documents are plain JSON, so rfdc copies them without prototypes or cycle checks: structuredClone,
 * which serializes and deserializes, was a quarter of a replay's CPU.
 */
const copyDoc = rfdc({ proto: false, circles: false });

const checkpointName = (projection: Projection) => `projection:${projection.name}`;
/** Suffix of the collection a projection is rebuilt into before it replaces the one in service. */
const ASIDE_SUFFIX = '__rebuild';

const typesHandled = new WeakMap<Projection, ReadonlySet<string>>();

/** The event types a projection handles, as a set (made once per projection). */
function handledTypes(projection: Projection): ReadonlySet<string> {
  let types = typesHandled.get(projection);
  if (!types) typesHandled.set(projection, (types = new Set(projection.handles)));
  return types;
}

/**
 * Runs pure projections over the global order. Projections that stand at the same checkpoint share one
 * subscription (a lane) and one read-store transaction per batch; a projection being rebuilt gets a lane of its
 * own. Every document keeps the position it reflects, so a redelivered event changes nothing.
 */
export class ProjectionRunner {
  private readonly lanes = new Set<Lane>();
  private readonly laneOf = new Map<string, Lane>();
  private readonly parked = new Map<string, ParkedEvent[]>();
  private readonly rebuiltFor = new Map<string, GlobalPosition>();
  private readonly rebuilds = new Map<string, RebuildState>();
  /** Lanes rebuilding a projection aside, by projection name. */
  private readonly asides = new Map<string, Lane>();
  private waiters: Waiter[] = [];
  /** The position of each projection's last written checkpoint, and when it was written. */
  private readonly written = new Map<string, { position: GlobalPosition; at: number }>();
  /** Projections whose checkpoint state (parked events, rebuilds) changed since it was last written. */
  private readonly dirty = new Set<string>();
  private readonly batchSize: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private running = false;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    const names = new Set<string>();
    for (const projection of projections) {
      if (names.has(projection.name)) throw new Error(`two projections are named ${projection.name}`);
      names.add(projection.name);
    }
    this.batchSize = options.batchSize ?? 500;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoffMs = options.backoffMs ?? 50;
  }

  /** Prepares the collections, resets projections whose version changed, and starts following the store. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const byPosition = new Map<string, Projection[]>();
    for (const projection of this.projections) {
      const position = await this.prepare(projection);
      const key = positionToString(position);
      byPosition.set(key, [...(byPosition.get(key) ?? []), projection]);
    }
    for (const [key, projections] of byPosition) this.startLane({ position: positionFromString(key), projections });
    // Rebuilds a crash interrupted (asked for, or under way) start again from the beginning.
    for (const projection of this.projections) {
      const rebuild = this.rebuilds.get(projection.name);
      if (rebuild && rebuild.state !== 'done') {
        this.options.logger?.log?.(
          `projection ${projection.name}: resuming the rebuild asked for at ${rebuild.position}`,
        );
        this.startRebuild(projection.name);
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    const lanes = [...this.lanes];
    await Promise.all(lanes.map((lane) => lane.subscription?.close()));
    await Promise.all(lanes.map((lane) => lane.done));
    for (const lane of lanes) {
      clearTimeout(lane.flushTimer);
      await lane.flushing;
      await this.flush(lane);
    }
    this.lanes.clear();
    this.laneOf.clear();
    for (const lane of this.asides.values()) lane.aside?.finished.reject(new Error('stopped before the rebuild ended'));
    this.asides.clear();
  }

  /**
   * Replays a projection from the first event into a collection aside while the one in service keeps answering
   * and following new events; when the replay has caught up, the rebuilt collection replaces it in one step and
   * its lane takes over. Resolves then. Operators ask for it from another process with `requestProjectionRebuild`
   * (the CLI does). A stopped runner just forgets the projection, which then replays at the next start.
   */
  async rebuild(name: string): Promise<void> {
    const projection = this.projection(name);
    const underWay = this.asides.get(name)?.aside;
    if (underWay) return underWay.finished.promise;
    if (!this.running) {
      await this.store.deleteCheckpoint(checkpointName(projection));
      await this.store.dropCollection(projection.collection);
      return;
    }
    const aside: Aside = {
      projection,
      collection: `${projection.collection}${ASIDE_SUFFIX}`,
      parked: [],
      rebuiltFor: START,
      finished: deferred(),
    };
    const lane: Lane = { position: START, projections: [projection], aside };
    this.asides.set(name, lane);
    try {
      aside.rebuiltFor = await this.events.headPosition();
      const asked = this.rebuilds.get(name);
      this.rebuilds.set(name, {
        state: 'running',
        position: asked && asked.state !== 'done' ? asked.position : positionToString(aside.rebuiltFor),
        head: positionToString(aside.rebuiltFor),
      });
      this.options.logger?.log?.(`projection ${name}: rebuilding from the start`);
      await this.store.dropCollection(aside.collection);
      await this.store.ensureCollection(aside.collection, projection.indexes ?? []);
      // An empty store has nothing to replay: the empty collection goes into service at once.
      if (aside.rebuiltFor === START) await this.promote(lane);
      else this.startLane(lane);
    } catch (error) {
      this.asides.delete(name);
      aside.finished.reject(error as Error);
    }
    return aside.finished.promise;
  }

  /** Resolves once every named projection (all when omitted) has applied the store up to `position`. */
  waitFor(position: GlobalPosition | null, names?: readonly string[], timeoutMs = 5000): Promise<void> {
    if (position === null || this.reached(position, names ?? null)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { position, names: names ?? null, resolve: () => undefined };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new TimedOut('the read models did not catch up with this change in time; it was saved'));
      }, timeoutMs);
      // a waiter keeps nothing alive by itself: whoever waits (a request, a stream) holds the process open
      timer.unref();
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  /** Waits until the projections have applied everything the store held when called (including other processes' appends). */
  async catchUp(names?: readonly string[], timeoutMs = 5000): Promise<void> {
    const head = await this.events.headPosition();
    if (head !== START) await this.waitFor(head, names, timeoutMs);
  }

  async status(): Promise<ProjectionStatus[]> {
    const out: ProjectionStatus[] = [];
    for (const projection of this.projections) {
      const lane = this.laneOf.get(projection.name);
      const checkpoint = lane ? lane.position : (await this.storedCheckpoint(projection)).position;
      const after = await this.events.readAll({ after: checkpoint, maxCount: LAG_CAP + 1 });
      out.push({
        name: projection.name,
        version: projection.version,
        checkpoint: checkpoint === START ? null : positionToString(checkpoint),
        lag: Math.min(after.length, LAG_CAP),
        lagCapped: after.length > LAG_CAP,
        parked: this.parked.get(projection.name) ?? [],
        state: this.asides.has(projection.name) ? 'rebuilding' : lane ? 'running' : 'stopped',
        ...(this.rebuilds.has(projection.name) ? { rebuild: this.rebuilds.get(projection.name) } : {}),
      });
    }
    return out;
  }

  /** The position one projection has applied the store up to (null while it is not running or is being rebuilt). */
  positionOf(name: string): GlobalPosition | null {
    return this.laneOf.get(name)?.position ?? null;
  }

  /** The lowest position every running projection has reached. */
  position(): GlobalPosition | null {
    let lowest: GlobalPosition | null = null;
    for (const lane of this.lanes) {
      if (!lane.aside && (lowest === null || lane.position < lowest)) lowest = lane.position;
    }
    return lowest;
  }

  private projection(name: string): Projection {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`no projection is named ${name}`);
    return projection;
  }

  private async storedCheckpoint(
    projection: Projection,
  ): Promise<{ position: GlobalPosition; state: CheckpointState }> {
    const checkpoint = await this.store.getCheckpoint(checkpointName(projection));
    const state = (checkpoint?.state ?? null) as unknown as CheckpointState | null;
    return {
      position: checkpoint?.position ?? START,
      state: {
        version: state?.version ?? projection.version,
        parked: state?.parked ?? [],
        ...(state?.rebuiltFor ? { rebuiltFor: state.rebuiltFor } : {}),
        ...(state?.rebuild ? { rebuild: state.rebuild } : {}),
      },
    };
  }

  /** Ensures the collection exists and resets it when the projection's version changed. */
  private async prepare(projection: Projection): Promise<GlobalPosition> {
    await this.store.ensureCollection(projection.collection, projection.indexes ?? []);
    const checkpoint = await this.store.getCheckpoint(checkpointName(projection));
    if (!checkpoint) return this.fromNothing(projection);
    const { position, state } = await this.storedCheckpoint(projection);
    if (state.version !== projection.version) {
      this.options.logger?.log?.(
        `projection ${projection.name}: version ${state.version} → ${projection.version}, rebuilding`,
      );
      await this.store.deleteCheckpoint(checkpointName(projection));
      await this.store.dropCollection(projection.collection);
      return this.fromNothing(projection);
    }
    this.parked.set(projection.name, state.parked);
    this.rebuiltFor.set(projection.name, state.rebuiltFor ? positionFromString(state.rebuiltFor) : START);
    if (state.rebuild) this.rebuilds.set(projection.name, state.rebuild);
    return position;
  }

  /** A projection starting with no documents: any rebuild asked for until now is what it is about to do. */
  private async fromNothing(projection: Projection): Promise<GlobalPosition> {
    this.parked.set(projection.name, []);
    this.rebuilds.delete(projection.name);
    this.rebuiltFor.set(projection.name, await this.events.headPosition());
    return START;
  }

  private startLane(lane: Lane): void {
    if (!lane.aside) for (const projection of lane.projections) this.laneOf.set(projection.name, lane);
    this.lanes.add(lane);
    lane.subscription = this.events.subscribeToAll({ after: lane.position, batchSize: this.batchSize });
    lane.done = (async () => {
      try {
        for await (const delivered of lane.subscription!) {
          // events a promotion already applied come again from the subscription: skip them
          const batch = delivered.filter((event) => event.position > lane.position);
          if (batch.length === 0) continue;
          await lane.flushing;
          lane.busy = this.applyBatch(lane, batch);
          await lane.busy;
          lane.busy = undefined;
          if (!lane.aside) this.startAskedRebuilds(lane);
          else if (lane.position >= (await this.events.headPosition())) await this.promote(lane);
        }
      } catch (error) {
        this.options.logger?.error(`projection lane stopped: ${(error as Error).stack ?? String(error)}`);
        lane.aside?.finished.reject(error as Error);
      }
    })();
  }

  /**
   * Puts a projection rebuilt aside in service: takes it out of its old lane, applies what that lane applied
   * since, replaces the collection in service with the rebuilt one, and records the checkpoint (after the
   * replacement: interrupted before it, the old collection and checkpoint still agree).
   */
  private async promote(lane: Lane): Promise<void> {
    const aside = lane.aside!;
    const { projection } = aside;
    const old = this.laneOf.get(projection.name);
    if (old) {
      old.projections = old.projections.filter((p) => p !== projection);
      this.laneOf.delete(projection.name);
      await old.busy;
      await old.flushing;
      if (old.projections.length === 0) {
        await old.subscription?.close();
        this.lanes.delete(old);
      }
    }
    for (;;) {
      const more = await this.events.readAll({ after: lane.position, maxCount: this.batchSize });
      if (more.length === 0) break;
      await this.applyBatch(lane, more);
    }
    await this.store.replaceCollection(projection.collection, aside.collection);
    lane.aside = undefined;
    this.parked.set(projection.name, aside.parked);
    // A request that came while the replay ran is satisfied too: the replay went through everything up to now.
    const asked = this.rebuilds.get(projection.name);
    const satisfied = asked ? positionFromString(asked.position) : START;
    this.rebuiltFor.set(projection.name, satisfied > aside.rebuiltFor ? satisfied : aside.rebuiltFor);
    this.rebuilds.set(projection.name, {
      state: 'done',
      position: asked?.position ?? positionToString(aside.rebuiltFor),
      head: positionToString(aside.rebuiltFor),
    });
    await this.writeCheckpoints([], [projection], lane.position);
    this.laneOf.set(projection.name, lane);
    this.asides.delete(projection.name);
    this.options.logger?.log?.(
      `projection ${projection.name}: rebuilt, in service at ${positionToString(lane.position)}`,
    );
    this.notifyWaiters();
    aside.finished.resolve();
  }

  /**
   * Records the rebuilds that requests in this batch ask of the lane's projections: kept as `pending` in the
   * checkpoint the batch writes, so that a crash after the checkpoint moved past a request does not lose it.
   */
  private noteRebuildRequests(lane: Lane, batch: RecordedEvent[]): void {
    for (const event of batch) {
      if (event.type !== PROJECTION_REBUILD_REQUESTED) continue;
      const wanted = (event.data as unknown as ProjectionRebuildRequested).projections;
      for (const projection of lane.projections) {
        if (wanted !== 'all' && !(Array.isArray(wanted) && wanted.includes(projection.name))) continue;
        if (event.position <= (this.rebuiltFor.get(projection.name) ?? START)) continue;
        const current = this.rebuilds.get(projection.name);
        this.dirty.add(projection.name);
        // a replay under way satisfies a later request too (see `promote`); otherwise the request waits
        this.rebuilds.set(
          projection.name,
          current?.state === 'running'
            ? { ...current, position: positionToString(event.position) }
            : { state: 'pending', position: positionToString(event.position) },
        );
      }
    }
  }

  /** Starts the rebuilds asked of the lane's projections (not awaited: they take the projection out of the lane). */
  private startAskedRebuilds(lane: Lane): void {
    for (const projection of [...lane.projections]) {
      if (this.rebuilds.get(projection.name)?.state === 'pending') this.startRebuild(projection.name);
    }
  }

  private startRebuild(name: string): void {
    this.rebuild(name).catch((error: unknown) =>
      this.options.logger?.error(`projection ${name}: rebuild failed: ${errorText(error)}`),
    );
  }

  private async applyBatch(lane: Lane, batch: RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1].position;
    if (!lane.aside) this.noteRebuildRequests(lane, batch);
    const projections = [...lane.projections];
    const perProjection = new Map<Projection, WriteOp[]>();
    for (const projection of projections) {
      // most projections handle none of a write's events: they are passed over without a turn of the loop
      const handled = handledTypes(projection);
      if (!batch.some((event) => handled.has(event.type))) continue;
      perProjection.set(projection, await this.evolveBatch(lane, projection, batch));
    }
    const allOps = projections.flatMap((projection) => perProjection.get(projection) ?? []);
    // A lane rebuilding aside keeps no checkpoint: interrupted, the rebuild starts over.
    if (lane.aside) {
      if (!(await this.tryWrite(allOps, []))) await this.isolateFailure(lane, projections, perProjection, batch);
    } else {
      const now = Date.now();
      const due = projections.filter(
        (projection) =>
          (perProjection.get(projection)?.length ?? 0) > 0 ||
          this.dirty.has(projection.name) ||
          now - (this.written.get(projection.name)?.at ?? 0) >= CHECKPOINT_LAG_MS,
      );
      if (!(await this.writeCheckpoints(allOps, due, last))) {
        await this.isolateFailure(lane, projections, perProjection, batch);
      }
    }
    lane.position = last;
    if (!lane.aside && projections.some((p) => (this.written.get(p.name)?.position ?? START) < last)) {
      this.scheduleFlush(lane);
    }
    this.notifyWaiters();
  }

  /** After a batch's write failed: the projection whose writes fail is found, and its events of the batch parked. */
  private async isolateFailure(
    lane: Lane,
    projections: Projection[],
    perProjection: Map<Projection, WriteOp[]>,
    batch: RecordedEvent[],
  ): Promise<void> {
    const last = batch[batch.length - 1].position;
    const write = (ops: WriteOp[], projection: Projection) =>
      lane.aside ? this.tryWrite(ops, []) : this.writeCheckpoints(ops, [projection], last);
    for (const projection of projections) {
      if (await write(perProjection.get(projection) ?? [], projection)) continue;
      for (const event of batch) {
        if (handledTypes(projection).has(event.type)) {
          this.park(lane, projection, event, 'the read store refused the write');
        }
      }
      await write([], projection);
    }
  }

  /** Writes documents with the checkpoints of `projections` at `position`, and remembers what was written. */
  private async writeCheckpoints(
    ops: WriteOp[],
    projections: Projection[],
    position: GlobalPosition,
  ): Promise<boolean> {
    if (ops.length === 0 && projections.length === 0) return true;
    const written = await this.tryWrite(ops, this.checkpointsOf(projections, position));
    if (written) {
      const at = Date.now();
      for (const projection of projections) {
        this.written.set(projection.name, { position, at });
        this.dirty.delete(projection.name);
      }
    }
    return written;
  }

  /** Writes, a little later, the checkpoints a lane's batches left behind (projections none of them changed). */
  private scheduleFlush(lane: Lane): void {
    if (lane.flushTimer) return;
    lane.flushTimer = setTimeout(() => {
      lane.flushTimer = undefined;
      if (!this.running || !this.lanes.has(lane) || lane.aside) return;
      lane.flushing = (async () => {
        await lane.busy;
        await this.flush(lane);
        lane.flushing = undefined;
      })();
    }, CHECKPOINT_LAG_MS);
    lane.flushTimer.unref();
  }

  private async flush(lane: Lane): Promise<void> {
    if (lane.aside) return;
    const behind = lane.projections.filter(
      (projection) => (this.written.get(projection.name)?.position ?? START) < lane.position,
    );
    await this.writeCheckpoints([], behind, lane.position);
  }

  private checkpointsOf(projections: Projection[], position: GlobalPosition): Checkpoint[] {
    return projections.map((projection) => ({
      name: checkpointName(projection),
      position,
      state: {
        version: projection.version,
        parked: this.parked.get(projection.name) ?? [],
        rebuiltFor: positionToString(this.rebuiltFor.get(projection.name) ?? START),
        ...(this.rebuilds.has(projection.name) ? { rebuild: this.rebuilds.get(projection.name) } : {}),
      } as unknown as Json,
    }));
  }

  private async evolveBatch(lane: Lane, projection: Projection, batch: RecordedEvent[]): Promise<WriteOp[]> {
    const collection = lane.aside?.collection ?? projection.collection;
    // The documents of the whole batch are read at once first (one read instead of one per document: on a replay
    // from scratch nearly every document is new, and each lookup of one that is not there was a query).
    const targets = batch.map((event) => this.targetOf(projection, event));
    const wanted = new Set<string>();
    for (const target of targets) {
      if (target === undefined || 'error' in target) continue;
      if (target.id !== null) wanted.add(target.id);
      for (const relatedId of target.relatedIds) wanted.add(relatedId);
    }
    const stored = wanted.size > 0 ? await this.store.getStoredMany(collection, [...wanted]) : new Map();
    const working = new Map<string, { doc: Doc | null; position: GlobalPosition }>();
    const current = (id: string) => {
      const found = working.get(id) ?? stored.get(id);
      return found ? { doc: found.doc, position: found.position } : { doc: null, position: START };
    };
    // Ids that evolveRelated changes without having named them (not read above) are read one at a time.
    const load = async (id: string) => {
      if (working.has(id) || stored.has(id) || wanted.has(id)) return current(id);
      const found = await this.store.getStored(collection, id);
      return found ? { doc: found.doc, position: found.position } : { doc: null, position: START };
    };
    for (let index = 0; index < batch.length; index++) {
      const event = batch[index];
      const target = targets[index];
      if (target === undefined) continue;
      if ('error' in target) {
        this.park(lane, projection, event, target.error);
        continue;
      }
      const { id, relatedIds } = target;
      const related = new Map<string, Doc | null>();
      for (const relatedId of relatedIds) related.set(relatedId, current(relatedId).doc);
      if (id !== null) {
        const now = current(id);
        // already applied: redelivery is harmless
        if (now.position < event.position) {
          let next: Doc | null | undefined;
          try {
            next = projection.evolve(now.doc === null ? null : copyDoc(now.doc), event, related);
          } catch (error) {
            next = await this.evolveWithRetry(lane, projection, now.doc, event, related, error);
          }
          if (next !== undefined) working.set(id, { doc: next, position: event.position });
        }
      }
      if (relatedIds.length > 0 && projection.evolveRelated) {
        let changes: ReadonlyMap<string, Doc | null>;
        try {
          changes = projection.evolveRelated(related, event);
        } catch (error) {
          this.park(lane, projection, event, errorText(error));
          continue;
        }
        for (const [relatedId, doc] of changes) {
          if ((await load(relatedId)).position >= event.position) continue;
          working.set(relatedId, { doc, position: event.position });
        }
      }
    }
    const ops: WriteOp[] = [];
    for (const [id, { doc, position }] of working) {
      ops.push(
        doc === null
          ? { kind: 'delete', collection, id, position }
          : { kind: 'put', collection, doc: { ...doc, id }, position },
      );
    }
    return ops;
  }

  /**
   * Which documents an event of the batch changes (undefined: none, the projection does not handle it; an error:
   * its ids could not be worked out, and the event is parked).
   */
  private targetOf(
    projection: Projection,
    event: RecordedEvent,
  ): { id: string | null; relatedIds: readonly string[] } | { error: string } | undefined {
    if (!handledTypes(projection).has(event.type)) return undefined;
    try {
      const id = projection.idOf(event);
      const relatedIds = projection.relatedOf?.(event) ?? [];
      return id === null && relatedIds.length === 0 ? undefined : { id, relatedIds };
    } catch (error) {
      return { error: errorText(error) };
    }
  }

  /**
   * After a first attempt failed: the new document from a later attempt (each after a back-off), or undefined
   * when the event had to be parked.
   */
  private async evolveWithRetry(
    lane: Lane,
    projection: Projection,
    doc: Doc | null,
    event: RecordedEvent,
    related: ReadonlyMap<string, Doc | null>,
    firstError: unknown,
  ): Promise<Doc | null | undefined> {
    let lastError = firstError;
    for (let attempt = 1; attempt < this.maxAttempts; attempt++) {
      await sleep(this.backoffMs * 2 ** (attempt - 1));
      try {
        return projection.evolve(doc === null ? null : copyDoc(doc), event, related);
      } catch (error) {
        lastError = error;
      }
    }
    this.park(lane, projection, event, errorText(lastError));
    return undefined;
  }

  private async tryWrite(ops: WriteOp[], checkpoints: Checkpoint[]): Promise<boolean> {
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      try {
        await this.store.write(ops, checkpoints);
        return true;
      } catch (error) {
        this.options.logger?.warn(`read-store write failed (attempt ${attempt + 1}): ${errorText(error)}`);
        if (attempt + 1 < this.maxAttempts) await sleep(this.backoffMs * 2 ** attempt);
      }
    }
    return false;
  }

  private park(lane: Lane, projection: Projection, event: RecordedEvent, error: string): void {
    if (!lane.aside) this.dirty.add(projection.name);
    const list = lane.aside ? lane.aside.parked : (this.parked.get(projection.name) ?? []);
    list.push({
      position: positionToString(event.position),
      eventId: event.id,
      type: event.type,
      error,
      parkedAt: new Date().toISOString(),
    });
    const kept = list.slice(-MAX_PARKED_KEPT);
    if (lane.aside) lane.aside.parked = kept;
    else this.parked.set(projection.name, kept);
    this.options.logger?.error(`projection ${projection.name} parked event ${event.id} (${event.type}): ${error}`);
  }

  private reached(position: GlobalPosition, names: readonly string[] | null): boolean {
    if (names === null) {
      let serving = 0;
      for (const lane of this.lanes) {
        if (lane.aside) continue; // a rebuild aside serves nobody until it is promoted
        serving++;
        if (lane.position < position) return false;
      }
      return serving > 0;
    }
    for (const name of names) {
      const lane = this.laneOf.get(name);
      if (!lane || lane.position < position) return false;
    }
    return true;
  }

  private notifyWaiters(): void {
    if (this.waiters.length === 0) return;
    const pending: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (this.reached(waiter.position, waiter.names)) waiter.resolve();
      else pending.push(waiter);
    }
    this.waiters = pending;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function deferred(): Aside['finished'] {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a rebuild nobody awaits must not fail as an unhandled rejection
  return { promise, resolve, reject };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
