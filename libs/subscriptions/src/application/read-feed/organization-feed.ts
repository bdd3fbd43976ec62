import { Inject, Injectable } from '@nestjs/common';
import {
  type GlobalPosition,
  NotFound,
  PUBLIC_EVENT_MAPPERS,
  PUBLIC_EVENT_SOURCE,
  type PublicEvent,
  type PublicEventMapper,
  type PublicEventSource,
  READ_STORE,
  type ReadStore,
  type StoredPublicEvent,
  ValidationFailed,
} from '@app/kernel';
import { atLeast } from '@app/kernel/domain';
import {
  COLLECTIONS,
  type CollectionDoc,
  ContentAccess,
  type ContentViewer,
  SPACES,
  type SpaceDoc,
} from '@app/content';

/** Raw events read at once while a page fills (more when the page asks for more). */
const SCAN_BATCH = 200;
/** Reads per page at most: a page whose caller may read little of what happened comes back short, with `next`. */
const SCAN_ROUNDS = 10;

/**
 * Who reads a feed, judged now: an organization admin sees every event; a member with a role every event but
 * the admins' own; a guest only events about the spaces and collections they can read now.
 */
export class FeedReader {
  private readonly readable = new Map<string, Promise<boolean>>();

  constructor(
    readonly organizationId: string,
    readonly userId: string,
    private readonly viewer: ContentViewer,
    private readonly store: ReadStore,
    private readonly access: ContentAccess,
  ) {}

  get isAdmin(): boolean {
    return this.viewer.role === 'admin';
  }

  async mayRead(stored: StoredPublicEvent): Promise<boolean> {
    const { audience } = stored;
    if (this.viewer.role === 'admin') return true;
    if (audience === 'admin') return false;
    if (this.viewer.role !== null) return true;
    if (audience === undefined) return false;
    const key = 'space' in audience ? `space:${audience.space}` : `collection:${audience.collection}`;
    let known = this.readable.get(key);
    if (!known) {
      known = 'space' in audience ? this.readsSpace(audience.space) : this.readsCollection(audience.collection);
      this.readable.set(key, known);
    }
    return known;
  }

  private async readsSpace(spaceId: string): Promise<boolean> {
    const space = await this.store.get<SpaceDoc>(SPACES, spaceId);
    if (!space || space.organizationId !== this.organizationId) return false;
    return atLeast(await this.access.roleOn(this.viewer, space), 'read');
  }

  private async readsCollection(collectionId: string): Promise<boolean> {
    const collection = await this.store.get<CollectionDoc>(COLLECTIONS, collectionId);
    if (!collection || collection.organizationId !== this.organizationId) return false;
    return atLeast(await this.access.roleOn(this.viewer, collection), 'read');
  }
}

export interface FeedPage {
  events: PublicEvent[];
  /** Where the next page starts: past every event read for this one, including those the reader may not see. */
  scannedTo: GlobalPosition;
  /** Whether events may follow right away (a full page, or a scan cut short). */
  more: boolean;
}

/** An organization's public events as one caller may read them. */
@Injectable()
export class OrganizationFeed {
  constructor(
    @Inject(PUBLIC_EVENT_SOURCE) private readonly source: PublicEventSource,
    @Inject(PUBLIC_EVENT_MAPPERS) private readonly mappers: readonly PublicEventMapper[],
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly access: ContentAccess,
  ) {}

  /** The caller as a reader of the organization's feed; NotFound when they are not a member. */
  async reader(organizationId: string, userId: string): Promise<FeedReader> {
    const reader = await this.readerOrNull(organizationId, userId);
    if (!reader) throw new NotFound(`Organization ${organizationId} not found`);
    return reader;
  }

  async readerOrNull(organizationId: string, userId: string): Promise<FeedReader | undefined> {
    const viewer = await this.access.viewerOrNull(organizationId, userId);
    return viewer && new FeedReader(organizationId, userId, viewer, this.store, this.access);
  }

  /** The types asked for, checked against the catalogue (undefined: all). */
  types(requested: readonly string[] | undefined): string[] | undefined {
    if (requested === undefined || requested.length === 0) return undefined;
    const known = new Set(this.mappers.flatMap((mapper) => mapper.kinds.map((kind) => kind.type)));
    const unknown = requested.filter((type) => !known.has(type));
    if (unknown.length > 0) {
      throw new ValidationFailed(
        `types: unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 5).join(', ')} (see GET /v1/events/schemas)`,
      );
    }
    return [...new Set(requested)];
  }

  /** Where a live stream starts: everything projected so far is behind it. */
  head(): GlobalPosition {
    return this.source.position();
  }

  waitAfter(position: GlobalPosition, signal: AbortSignal): Promise<void> {
    return this.source.waitAfter(position, signal);
  }

  /**
   * Up to `limit` events after `after` the reader may see. Events they may not see are skipped, reading further
   * (a bounded number of times) so that a page stays full while readable events exist.
   */
  async page(
    reader: FeedReader,
    options: { after: GlobalPosition; limit: number; types?: readonly string[] },
  ): Promise<FeedPage> {
    const events: PublicEvent[] = [];
    if (options.limit <= 0) return { events, scannedTo: options.after, more: false };
    // taken before reading: everything projected up to here is in what the reads below return
    const head = this.source.position();
    const batch = Math.max(SCAN_BATCH, options.limit);
    let cursor = options.after;
    for (let round = 0; round < SCAN_ROUNDS; round++) {
      const found = await this.source.read(reader.organizationId, {
        after: cursor,
        limit: batch,
        types: options.types,
      });
      for (const stored of found) {
        cursor = BigInt(stored.event.position);
        if (!(await reader.mayRead(stored))) continue;
        events.push(stored.event);
        if (events.length === options.limit) return { events, scannedTo: cursor, more: true };
      }
      if (found.length < batch) return { events, scannedTo: head > cursor ? head : cursor, more: false };
    }
    return { events, scannedTo: cursor, more: true };
  }
}
