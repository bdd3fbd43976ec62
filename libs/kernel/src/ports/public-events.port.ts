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
 * What a context's mapper says about one domain event. The catalogue fills the envelope (`id`, `position`,
 * `occurredAt`, `actor`) from the recorded event.
 */
export interface PublicEventDraft {
  type: string;
  version: number;
  organization: string;
  subject: { object: string; id: string };
  data: Record<string, unknown>;
  /**
   * What a reader must be able to read to see the event, judged when it is read: a space, a collection, or
   * (when absent) organization membership alone; `admin` for events only organization admins see.
   */
  audience?: { space: string } | { collection: string } | 'admin';
}

/** A JSON Schema (draft 2020-12) object. */
export type JsonSchema = Record<string, unknown>;

/** One documented kind of public event. */
export interface PublicEventKind {
  type: string;
  version: number;
  description: string;
  /** Schema of the `data` field. */
  schema: JsonSchema;
}

/**
 * A context's contribution to the catalogue: the kinds it publishes and the mapping from its domain events.
 * `map` is pure and may return nothing (internal events) or several public events for one domain event.
 */
export interface PublicEventMapper {
  kinds: readonly PublicEventKind[];
  map(event: RecordedEvent): readonly PublicEventDraft[];
}

/** Multi-provider token: every context module registers its mapper under it. */
export const PUBLIC_EVENT_MAPPERS = Symbol('PUBLIC_EVENT_MAPPERS');

/** A stored public event with what the access check needs. */
export interface StoredPublicEvent {
  event: PublicEvent;
  audience?: PublicEventDraft['audience'];
}

/** Reads an organization's public events in global order (the feed, webhooks and history are built on it). */
export interface PublicEventSource {
  /** Events of `organization` after `after` (exclusive), oldest first, at most `limit`, optionally of some types. */
  read(
    organization: string,
    options: { after: GlobalPosition; limit: number; types?: readonly string[] },
  ): Promise<StoredPublicEvent[]>;
  /** Resolves once public events after `after` may exist (or when the signal aborts). */
  waitAfter(after: GlobalPosition, signal: AbortSignal): Promise<void>;
}

export const PUBLIC_EVENT_SOURCE = Symbol('PUBLIC_EVENT_SOURCE');
