import { type DeadlineEvent, type ProcessDefinition } from '@app/kernel';
import { type DomainEvent } from '@app/kernel/domain';

export type OpenAPISpecProcessingDue = DomainEvent<
  'OpenAPISpecProcessingDue',
  { organizationId: string; slug: string; specId: string; sourceId: string }
>;

/** The process keeps nothing: whether a source still needs processing is the spec stream's to say. */
export type OpenAPIProcessingState = Record<string, never>;

/**
 * Every new source of an OpenAPI spec gets processed: when a spec is created or given a new source, this process
 * records that the source is due and sends `ProcessOpenAPISpecSource`. The command's handler fetches, parses and
 * records the outcome on the spec's stream, whose decider drops a result that is no longer wanted (a newer source
 * came, the spec was deleted, or the result is already there). A crash anywhere in between is harmless: the
 * trigger is delivered again after a restart, the same command is sent again, and the handler picks up where the
 * spec's stream says the work stands (`pending` or `progress`).
 */
export const openApiProcessingProcess: ProcessDefinition<OpenAPIProcessingState, OpenAPISpecProcessingDue> = {
  name: 'openapiprocessing',
  handles: ['OpenAPISpecCreated', 'OpenAPISpecSourceChanged'],
  instanceOf: (event) => String(event.data.specId),
  initialState: () => ({}),
  evolve: (state: OpenAPIProcessingState, _event: OpenAPISpecProcessingDue | DeadlineEvent) => state,
  when(_state, event) {
    const { organizationId, slug, specId, sourceId } = event.data as Record<string, unknown>;
    return [
      {
        type: 'OpenAPISpecProcessingDue',
        data: {
          organizationId: String(organizationId),
          slug: String(slug),
          specId: String(specId),
          sourceId: String(sourceId),
        },
      },
    ];
  },
  commands(_state, event) {
    return event.type === 'OpenAPISpecProcessingDue' ? [{ type: 'ProcessOpenAPISpecSource', data: event.data }] : [];
  },
};
