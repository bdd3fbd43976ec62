import { type GlobalPosition, type PublicEventSource, type StoredPublicEvent } from '@app/kernel';

/** What a tail read: the events after `from`, up to `to` (which may lie beyond the last event). */
export interface TailBatch {
  from: GlobalPosition;
  to: GlobalPosition;
  events: StoredPublicEvent[];
}

const TAIL_READ = 1000;

/**
 * One reader of an organization's newest public events, shared by every live stream of that organization: each new
 * batch is read once and handed to every attached stream, which then judges access and types for its caller. A
 * stream attaches once its own position has reached the tail's `cursor`, so the batches it gets start at or
 * before where it stands (it skips what it already sent). The tail runs while streams are attached.
 */
export class OrganizationTail {
  /** Everything up to here has been handed out: the next batch starts after it. */
  cursor: GlobalPosition;
  private readonly listeners = new Set<(batch: TailBatch) => void>();
  private running = false;
  private wake?: AbortController;

  constructor(
    readonly organizationId: string,
    private readonly source: PublicEventSource,
    private readonly onIdle: (tail: OrganizationTail) => void,
  ) {
    this.cursor = source.position();
  }

  attach(listener: (batch: TailBatch) => void): void {
    this.listeners.add(listener);
    if (!this.running) void this.run();
  }

  detach(listener: (batch: TailBatch) => void): void {
    this.listeners.delete(listener);
    if (this.listeners.size === 0) this.wake?.abort();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.listeners.size > 0) {
        // taken before reading: everything projected up to here is in what the read returns
        const head = this.source.position();
        const events = await this.source.read(this.organizationId, { after: this.cursor, limit: TAIL_READ });
        const from = this.cursor;
        const last = events.length > 0 ? BigInt(events[events.length - 1].event.position) : from;
        const to = events.length < TAIL_READ && head > last ? head : last;
        this.cursor = to;
        if (events.length > 0) for (const listener of [...this.listeners]) listener({ from, to, events });
        if (events.length < TAIL_READ) {
          this.wake = new AbortController();
          await this.source.waitAfter(this.cursor, this.wake.signal);
        }
      }
    } finally {
      this.running = false;
      if (this.listeners.size === 0) this.onIdle(this);
      else void this.run(); // a stream attached while the loop was leaving
    }
  }
}
