import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type RecordedEvent } from '../ports/event-store.port';
import { type PublicEvent, type PublicEventDraft, type PublicEventMapper } from '../ports/public-events.port';
import { publicEventSchema } from '../runtime/public-event-kinds';

/** Validates public events against their kind's schema (the schema `GET /v1/events/schemas` serves). */
export class PublicEventValidator {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(mappers: readonly PublicEventMapper[]) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    for (const kind of mappers.flatMap((mapper) => mapper.kinds)) {
      if (this.validators.has(kind.type)) throw new Error(`two kinds are named ${kind.type}`);
      this.validators.set(kind.type, ajv.compile(publicEventSchema(kind)));
    }
  }

  /** The problems of one event (empty when it validates). */
  problems(event: PublicEvent): string[] {
    const validate = this.validators.get(event.type);
    if (!validate) return [`${event.type}: no such kind`];
    if (validate(event as unknown)) return [];
    return (validate.errors ?? []).map((error) => `${event.type}${error.instancePath}: ${error.message ?? ''}`);
  }
}

let sequence = 0;

/** A recorded event for mapper tests. */
export function recorded(type: string, data: Record<string, unknown>, streamId = 'test-1'): RecordedEvent {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    streamId,
    type,
    data,
    metadata: { userId: 'user1' },
    revision: 0,
    position: BigInt(sequence),
    recordedAt: '2026-01-01T00:00:00.000Z',
  };
}

/**
 * Maps one domain event with a context's mapper and checks the result against its kind's schema, as the
 * projection would store it (with `organization` standing for an owner the projection would resolve).
 */
export function mapPublicEvent(mapper: PublicEventMapper, event: RecordedEvent): PublicEventDraft | null {
  const draft = mapper.map(event);
  if (!draft) return null;
  const problems = new PublicEventValidator([mapper]).problems({
    id: event.id,
    type: draft.type,
    version: draft.version,
    position: event.position.toString(),
    occurredAt: event.recordedAt,
    organization: typeof draft.organization === 'string' ? draft.organization : 'owner',
    actor: { id: 'user1' },
    subject: draft.subject,
    data: draft.data,
  });
  if (problems.length > 0) throw new Error(`invalid public event: ${problems.join('; ')}`);
  return draft;
}
