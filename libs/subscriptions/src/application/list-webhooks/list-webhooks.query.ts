import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { WEBHOOKS, type WebhookDoc } from '../webhook-read-models';
import { presentWebhook } from '../webhook-presenters';

/** An organization's webhooks, oldest first; admins only. */
export class ListWebhooksQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListWebhooksQuery) {
    await this.organizations.requireRole(organizationId, userId, 'admin', 'read its webhooks');
    return readPage<WebhookDoc, unknown>(
      this.store,
      this.cursors,
      {
        collection: WEBHOOKS,
        scope: `webhooks:${organizationId}`,
        filter: { organizationId },
        sort: [['createdAt', 1]],
        query: params,
      },
      (doc) => presentWebhook(doc, this.urls),
    );
  }
}
