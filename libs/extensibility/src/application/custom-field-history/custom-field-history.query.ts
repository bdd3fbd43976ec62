import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  type HistoryEntry,
  type ListQuery,
  type ListResponse,
  NotFound,
  PAGE_CURSORS,
  type PageCursorCodec,
  READ_STORE,
  type ReadStore,
  historyList,
  publicEventsOf,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { customFieldsStream } from '../../domain';
import { customFieldsProjection } from '../../projections/custom-fields.projection';
import { extensibilityPublicEvents } from '../../public/public-events';
import { CUSTOM_FIELDS, type CustomFieldDoc } from '../read-models';

/** The fields of a custom field whose changes a history entry lists. */
const FIELDS = ['title', 'description', 'placeholder', 'options'];

export class CustomFieldHistoryQuery extends Query<ListResponse<HistoryEntry>> {
  constructor(
    readonly organizationId: string,
    readonly name: string,
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** A custom field's history, for whoever may read the custom field itself. */
@QueryHandler(CustomFieldHistoryQuery)
export class CustomFieldHistoryHandler implements IQueryHandler<CustomFieldHistoryQuery> {
  constructor(
    private readonly organizations: OrganizationAccess,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  async execute({ organizationId, name, userId, list }: CustomFieldHistoryQuery): Promise<ListResponse<HistoryEntry>> {
    await this.organizations.requireMember(organizationId, userId);
    const found = await this.store.find<CustomFieldDoc>(CUSTOM_FIELDS, { filter: { organizationId, name }, limit: 1 });
    const field = found.items[0];
    if (!field) throw new NotFound(`No matching custom field found: ${name}`);
    return historyList(this.events, this.cursors, list, {
      streamId: customFieldsStream(organizationId),
      projection: customFieldsProjection,
      id: field.id,
      subject: { object: 'custom-field', id: name },
      fields: FIELDS,
      publicEvents: publicEventsOf(extensibilityPublicEvents, organizationId),
    });
  }
}
