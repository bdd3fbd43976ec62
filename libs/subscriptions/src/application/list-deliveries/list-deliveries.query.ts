import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  type ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { findWebhook } from '../get-webhook/get-webhook.query';
import { WEBHOOK_DELIVERIES, type WebhookDeliveryDoc } from '../webhook-read-models';
import { presentDelivery } from '../webhook-presenters';

/** A webhook's delivery attempts, newest first; admins only. */
export class ListDeliveriesQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly webhookId: string,
    readonly userId: string,
    readonly params: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, webhookId, userId, params }: ListDeliveriesQuery) {
    await this.organizations.requireRole(organizationId, userId, 'admin', 'read its webhooks');
    await findWebhook(this.store, organizationId, webhookId);
    return readPage<WebhookDeliveryDoc, unknown>(
      this.store,
      this.cursors,
      {
        collection: WEBHOOK_DELIVERIES,
        scope: `webhook-deliveries:${webhookId}`,
        filter: { webhookId },
        sort: [['order', -1]],
        query: params,
      },
      presentDelivery,
    );
  }
}
