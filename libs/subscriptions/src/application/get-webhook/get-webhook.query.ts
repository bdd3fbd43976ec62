import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { WEBHOOKS, type WebhookDoc } from '../webhook-read-models';
import { presentWebhook } from '../webhook-presenters';

export interface WebhookView {
  body: ReturnType<typeof presentWebhook>;
  /** Revision of the webhook's stream, for the ETag. */
  version: number;
}

/** One webhook; only the organization's admins see webhooks. */
export class GetWebhookQuery extends Query<WebhookView> {
  constructor(
    readonly organizationId: string,
    readonly webhookId: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ organizationId, webhookId, userId }: GetWebhookQuery): Promise<WebhookView> {
    await this.organizations.requireRole(organizationId, userId, 'admin', 'read its webhooks');
    const doc = await findWebhook(this.store, organizationId, webhookId);
    return { body: presentWebhook(doc, this.urls), version: doc.version };
  }
}

/** The webhook of this organization, or a 404 (also for another organization's). */
export async function findWebhook(store: ReadStore, organizationId: string, webhookId: string): Promise<WebhookDoc> {
  const doc = await store.get<WebhookDoc>(WEBHOOKS, webhookId);
  if (!doc || doc.organizationId !== organizationId) throw new NotFound(`Webhook ${webhookId} not found`);
  return doc;
}
