import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  type HistoryEntry,
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  historyList,
  publicEventsOf,
} from '@app/kernel';
import { organizationStream } from '../../domain';
import { organizationsProjection } from '../../projections/organizations.projection';
import { identityPublicEvents } from '../../public/public-events';
import { OrganizationAccess } from '../../public/organization-access';

/** The fields of a organization whose changes a history entry lists. */
const FIELDS = [
  'title',
  'emailDomains',
  'hostname',
  'defaultRole',
  'defaultContent',
  'logo',
  'sso',
  'ai',
  'inviteLinks',
  'useCase',
  'communityType',
];

export class OrganizationHistoryQuery extends Query<ListResponse<HistoryEntry>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly list: ListQuery,
  ) {
    super();
  }
}

/** A organization's history, for whoever may read the organization itself. */
@QueryHandler(OrganizationHistoryQuery)
export class OrganizationHistoryHandler implements IQueryHandler<OrganizationHistoryQuery> {
  constructor(
    private readonly access: OrganizationAccess,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
  ) {}

  async execute({ organizationId, userId, list }: OrganizationHistoryQuery): Promise<ListResponse<HistoryEntry>> {
    await this.access.requireMember(organizationId, userId);
    return historyList(this.events, this.cursors, list, {
      streamId: organizationStream(organizationId),
      projection: organizationsProjection,
      id: organizationId,
      subject: { object: 'organization', id: organizationId },
      fields: FIELDS,
      publicEvents: publicEventsOf(identityPublicEvents, organizationId),
    });
  }
}
