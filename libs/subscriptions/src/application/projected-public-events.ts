import { Inject, Injectable } from '@nestjs/common';
import {
  type Filter,
  type GlobalPosition,
  type PublicEventSource,
  READ_STORE,
  type ReadStore,
  Runtime,
  START,
  type StoredPublicEvent,
} from '@app/kernel';
import {
  PUBLIC_EVENTS,
  PUBLIC_EVENTS_PROJECTION,
  type PublicEventDoc,
  sortablePosition,
} from '../projections/public-events.projection';

/** How long one wait on the projection lasts before it is renewed (a wait aborted meanwhile is dropped then). */
const WAIT_SLICE_MS = 10_000;

/** The `PublicEventSource` of this service: the `publicevents` read model, and the runner that fills it. */
@Injectable()
export class ProjectedPublicEvents implements PublicEventSource {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly runtime: Runtime,
  ) {}

  async read(
    organization: string,
    options: { after: GlobalPosition; limit: number; types?: readonly string[] },
  ): Promise<StoredPublicEvent[]> {
    const filter: Filter = { kind: 'event', organization };
    if (options.after > START) filter.seq = { $gt: sortablePosition(options.after) };
    if (options.types) filter.type = { $in: [...options.types] };
    const found = await this.store.find<PublicEventDoc>(PUBLIC_EVENTS, {
      filter,
      sort: [['seq', 1]],
      limit: options.limit,
    });
    return found.items.map((doc) =>
      doc.audience === undefined ? { event: doc.event } : { event: doc.event, audience: doc.audience },
    );
  }

  position(): GlobalPosition {
    return this.runner()?.positionOf(PUBLIC_EVENTS_PROJECTION) ?? START;
  }

  async waitAfter(after: GlobalPosition, signal: AbortSignal): Promise<void> {
    const runner = this.runner();
    if (!runner) throw new Error('public events are not projected in this process');
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      while (!signal.aborted && this.position() <= after) {
        // a runner that stopped (the service is closing) or has not started wakes no one: look again later
        const reached =
          runner.positionOf(PUBLIC_EVENTS_PROJECTION) === null
            ? new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())
            : runner.waitFor(after + 1n, [PUBLIC_EVENTS_PROJECTION], WAIT_SLICE_MS).catch(() => undefined);
        await Promise.race([reached, aborted]);
      }
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  }

  private runner() {
    try {
      return this.runtime.projections;
    } catch {
      return undefined; // projections do not run in this process (the CLI)
    }
  }
}
