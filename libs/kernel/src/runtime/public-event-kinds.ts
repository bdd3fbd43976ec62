/**
 * Small builders for the JSON Schemas of public event kinds, so that each context's catalogue reads as a list of
 * fields. Objects are closed (`additionalProperties: false`) and every property is required unless named optional.
 */
import { type RecordedEvent, positionToString } from '../ports/event-store.port';
import {
  type JsonSchema,
  type PublicEvent,
  type PublicEventDraft,
  type PublicEventKind,
  type PublicEventMapper,
  type PublicEventOwner,
} from '../ports/public-events.port';

export const js = {
  string: { type: 'string' } as JsonSchema,
  time: { type: 'string', format: 'date-time' } as JsonSchema,
  integer: { type: 'integer' } as JsonSchema,
  number: { type: 'number' } as JsonSchema,
  boolean: { type: 'boolean' } as JsonSchema,
  /** Any JSON value (used where a value's type depends on something else, e.g. a custom field's type). */
  any: {} as JsonSchema,
  nullable(schema: JsonSchema): JsonSchema {
    return { anyOf: [schema, { type: 'null' }] };
  },
  enum(...values: (string | null)[]): JsonSchema {
    return { enum: values };
  },
  array(items: JsonSchema): JsonSchema {
    return { type: 'array', items };
  },
  /** An object with these properties, all required but `optional`, nothing else. */
  object(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
    return {
      type: 'object',
      properties,
      required: Object.keys(properties).filter((key) => !optional.includes(key)),
      additionalProperties: false,
    };
  },
  /** An object whose properties are all optional (a `changes` object: only what changed is there). */
  partial(properties: Record<string, JsonSchema>): JsonSchema {
    return { type: 'object', properties, additionalProperties: false };
  },
  /** A reference to another object: `{id}`. */
  ref: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
};

/** A role in the organization, or null for a guest. */
export const roleOrNull = js.enum('admin', 'create', 'review', 'edit', 'comment', 'read', null);

export function publicKind(
  type: string,
  subject: string,
  description: string,
  data: JsonSchema,
  version = 1,
): PublicEventKind {
  return { type, version, description, subject, schema: data };
}

/** `{id}`, the only way a user appears in a public event (names and addresses are personal data). */
export function userRef(id: string): { id: string } {
  return { id };
}

/** Keeps only the listed keys of an object that are present (what a `changes` object may show). */
export function pick(source: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (source === null || typeof source !== 'object') return out;
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** What a rule gives for one domain event: a draft without its version (taken from the kind). */
export type PublicEventRule = (
  data: Record<string, unknown> & { [key: string]: any }, // eslint-disable-line @typescript-eslint/no-explicit-any
  event: RecordedEvent,
) => Omit<PublicEventDraft, 'version'> | null;

/**
 * A context's mapper from its kinds and one rule per domain event type it maps (a rule may still give null).
 * A rule that names a type missing from `kinds` is a programming error and throws.
 */
export function publicEventMapper(options: {
  kinds: readonly PublicEventKind[];
  rules: Record<string, PublicEventRule>;
  owners?: Record<string, (data: Record<string, any>) => readonly PublicEventOwner[]>; // eslint-disable-line @typescript-eslint/no-explicit-any
}): PublicEventMapper {
  const versions = new Map(options.kinds.map((kind) => [kind.type, kind.version]));
  const owners = options.owners ?? {};
  return {
    kinds: options.kinds,
    handles: [...new Set([...Object.keys(options.rules), ...Object.keys(owners)])],
    owners: (event) => owners[event.type]?.(event.data) ?? [],
    map(event) {
      const rule = options.rules[event.type];
      const draft = rule ? rule(event.data, event) : null;
      if (!draft) return null;
      const version = versions.get(draft.type);
      if (version === undefined) throw new Error(`public event type ${draft.type} is not in the catalogue`);
      return { ...draft, version };
    },
  };
}

/**
 * The JSON Schema (draft-07) of a whole public event of one kind: the envelope every event shares, with this
 * kind's `type`, `version`, subject object and `data`. What `GET /v1/events/schemas` serves.
 */
export function publicEventSchema(kind: PublicEventKind): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: kind.type,
    description: kind.description,
    ...js.object({
      id: js.string,
      type: { const: kind.type },
      version: { const: kind.version },
      position: { type: 'string', pattern: '^[0-9]+$' },
      occurredAt: js.time,
      organization: js.string,
      actor: js.object({ id: js.nullable(js.string) }),
      subject: js.object({ object: js.string, id: js.string }),
      data: kind.schema,
    }),
  };
}

/** A public event from its domain event and the mapper's draft, once its organization is known. */
export function publicEventOf(event: RecordedEvent, draft: PublicEventDraft, organization: string): PublicEvent {
  return {
    id: event.id,
    type: draft.type,
    version: draft.version,
    position: positionToString(event.position),
    occurredAt: event.recordedAt,
    organization,
    actor: { id: typeof event.metadata.userId === 'string' ? event.metadata.userId : null },
    subject: draft.subject,
    data: draft.data,
  };
}

/**
 * The public events of one organization's resource, straight from a context's own mapper (for its history):
 * the organization is known from the resource, so no owner needs looking up.
 */
export function publicEventsOf(mapper: PublicEventMapper, organization: string) {
  return (event: RecordedEvent): PublicEvent[] => {
    const draft = mapper.map(event);
    return draft ? [publicEventOf(event, draft, organization)] : [];
  };
}
