import {
  type Doc,
  type GlobalPosition,
  type Projection,
  type PublicEvent,
  type PublicEventAudience,
  type PublicEventDraft,
  type PublicEventMapper,
  type RecordedEvent,
  positionToString,
  publicEventOf,
} from '@app/kernel';

export const PUBLIC_EVENTS_PROJECTION = 'publicevents';
/** The read-model collection of public events (and of the owners mappers record). */
export const PUBLIC_EVENTS = 'publicevents';

/** Digits of a zero-padded position: EventStoreDB's positions (commit × 2^64 + prepare) fit in 39. */
const POSITION_DIGITS = 40;

/** A position as a string that sorts like the number, in both read stores. */
export function sortablePosition(position: GlobalPosition): string {
  return positionToString(position).padStart(POSITION_DIGITS, '0');
}

/** One public event, as stored: the event as subscribers get it, and what the feed filters on. */
export interface PublicEventDoc extends Doc {
  kind: 'event';
  organization: string;
  type: string;
  /** The position, zero-padded (see `sortablePosition`). */
  seq: string;
  audience?: PublicEventAudience;
  event: PublicEvent;
}

/** Which organization an object (a space, a collection, a site) belongs to, as the mappers recorded it. */
export interface PublicEventOwnerDoc extends Doc {
  kind: 'owner';
  organization: string;
}

type StoredDoc = PublicEventDoc | PublicEventOwnerDoc;

const eventDocId = (event: RecordedEvent) => `event:${event.id}`;
const ownerDocId = (key: string) => `owner:${key}`;

/**
 * The public events of every organization, in global order: each context's mapper turns a domain event into at
 * most one public event, and the projection fills in its envelope and organization. Domain events that do not
 * carry their organization name an owner (`space:<id>`), which the projection keeps beside the events from the
 * events that create or transfer that object. Rebuildable like every projection.
 */
export function publicEventsProjection(mappers: readonly PublicEventMapper[]): Projection<StoredDoc> {
  const byType = new Map<string, PublicEventMapper[]>();
  for (const mapper of mappers) {
    for (const type of mapper.handles) byType.set(type, [...(byType.get(type) ?? []), mapper]);
  }
  const draftOf = (event: RecordedEvent): PublicEventDraft | null => {
    for (const mapper of byType.get(event.type) ?? []) {
      const draft = mapper.map(event);
      if (draft) return draft;
    }
    return null;
  };
  const ownersOf = (event: RecordedEvent) => (byType.get(event.type) ?? []).flatMap((m) => m.owners?.(event) ?? []);

  return {
    name: PUBLIC_EVENTS_PROJECTION,
    version: 1,
    collection: PUBLIC_EVENTS,
    indexes: [
      {
        fields: [
          ['organization', 1],
          ['seq', 1],
        ],
      },
      {
        fields: [
          ['organization', 1],
          ['type', 1],
          ['seq', 1],
        ],
      },
    ],
    handles: [...byType.keys()],
    idOf: (event) => (draftOf(event) ? eventDocId(event) : null),
    relatedOf(event) {
      const keys = ownersOf(event).map((owner) => owner.key);
      const draft = draftOf(event);
      if (draft && typeof draft.organization !== 'string') keys.push(draft.organization.ownerOf);
      return [...new Set(keys)].map(ownerDocId);
    },
    evolve(_doc, event, related) {
      const draft = draftOf(event);
      if (!draft) return null;
      const organization =
        typeof draft.organization === 'string'
          ? draft.organization
          : related?.get(ownerDocId(draft.organization.ownerOf))?.organization;
      // an object whose creation the projection never saw (it cannot happen in a whole store): nothing to show
      if (typeof organization !== 'string') return null;
      const doc: PublicEventDoc = {
        id: eventDocId(event),
        kind: 'event',
        organization,
        type: draft.type,
        seq: sortablePosition(event.position),
        event: publicEventOf(event, draft, organization),
      };
      if (draft.audience !== undefined) doc.audience = draft.audience;
      return doc;
    },
    evolveRelated(_related, event) {
      const changes = new Map<string, StoredDoc | null>();
      for (const owner of ownersOf(event)) {
        const id = ownerDocId(owner.key);
        changes.set(id, { id, kind: 'owner', organization: owner.organization });
      }
      return changes;
    },
  };
}
