/**
 * The public event contract: what event-stream subscribers (the organization feed, webhooks, resource history)
 * see instead of the internal domain events. Each context maps its own domain events to public events in its
 * `public/` folder, so a change inside a context never breaks a subscriber. docs/events.md is the catalogue.
 */
import type { GlobalPosition, RecordedEvent } from './event-store.port';

/** One public event, exactly as a subscriber receives it. */
export interface PublicEvent<Data extends Record<string, unknown> = Record<string, unknown>> {
  /** The id of the domain event it comes from (stable across redeliveries: a subscriber's idempotency key). */
  id: string;
  /** Dotted kind, for example `space.created` or `change_request.merged`. */
  type: string;
  /** Version of the `data` shape of this type; a breaking change gets a new version. */
  version: number;
  /** Global position, as a decimal string: the feed's cursor and the SSE `id:`. */
  position: string;
  occurredAt: string;
  organization: string;
  actor: { id: string | null };
  subject: { object: string; id: string };
  data: Data;
}

/**
 * Where a draft's organization comes from: the organization itself, or the owner of an object (`space:<id>`,
 * `collection:<id>`, `site:<id>`, see `ownerKey`) as mappers recorded it with `owners`, for domain events that
 * do not carry their organization (a space's update, a comment's edit).
 */
export type OrganizationRef = string | { ownerOf: string };

/**
 * What a context's mapper says about one domain event. The catalogue fills the envelope (`id`, `position`,
 * `occurredAt`, `actor`) from the recorded event.
 */
export interface PublicEventDraft {
  type: string;
  version: number;
  organization: OrganizationRef;
  subject: { object: string; id: string };
  data: Record<string, unknown>;
  /**
   * What a reader must be able to read to see the event, judged when it is read: a space, a collection, or
   * (when absent) a role in the organization (guests see only what they can read of spaces and collections);
   * `admin` for events only organization admins see.
   */
  audience?: PublicEventAudience;
}

export type PublicEventAudience = { space: string } | { collection: string } | 'admin';

/** A JSON Schema (draft 2020-12) object. */
export type JsonSchema = Record<string, unknown>;

/** One documented kind of public event. */
export interface PublicEventKind {
  type: string;
  version: number;
  description: string;
  /** What `subject.object` is for this kind. */
  subject: string;
  /** Schema of the `data` field. */
  schema: JsonSchema;
}

/** An object's organization from an event on: what `{ownerOf}` resolves to for later events. */
export interface PublicEventOwner {
  key: string;
  organization: string;
}

/**
 * A context's contribution to the catalogue: the kinds it publishes and the mapping from its domain events.
 * `map` is pure and returns at most one public event per domain event (so that an event's id and position
 * stay unique), or null for internal events.
 */
export interface PublicEventMapper {
  kinds: readonly PublicEventKind[];
  /** The domain event types it maps or learns owners from. */
  handles: readonly string[];
  /** Owners this event records (a space created or transferred belongs to that organization from now on). */
  owners?(event: RecordedEvent): readonly PublicEventOwner[];
  map(event: RecordedEvent): PublicEventDraft | null;
}

/** Builds the key of an owned object for `owners` and `{ownerOf}`; shared by every context. */
export function ownerKey(object: 'space' | 'collection' | 'site', id: string): string {
  return `${object}:${id}`;
}

/**
 * The mappers of every context (an array, filled as the context modules start: read it at run time, not in a
 * constructor). Context modules register theirs with `RuntimeRegistry.addPublicEventMappers`.
 */
export const PUBLIC_EVENT_MAPPERS = Symbol('PUBLIC_EVENT_MAPPERS');

/** A stored public event with what the access check needs. */
export interface StoredPublicEvent {
  event: PublicEvent;
  audience?: PublicEventAudience;
}

/** Reads an organization's public events in global order (the feed, webhooks and history are built on it). */
export interface PublicEventSource {
  /** Events of `organization` after `after` (exclusive), oldest first, at most `limit`, optionally of some types. */
  read(
    organization: string,
    options: { after: GlobalPosition; limit: number; types?: readonly string[] },
  ): Promise<StoredPublicEvent[]>;
  /**
   * The position the public events have been projected up to: every public event at or before it can be read.
   * A reader that found nothing (or less than a full page) after `after` may move on to it.
   */
  position(): GlobalPosition;
  /** Resolves once the public events have been projected past `after` (or when the signal aborts). */
  waitAfter(after: GlobalPosition, signal: AbortSignal): Promise<void>;
}

export const PUBLIC_EVENT_SOURCE = Symbol('PUBLIC_EVENT_SOURCE');
