import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { IntegrationAccess } from '../integration-access';
import { presentIntegration } from '../integration-presenters';

export interface IntegrationView {
  body: ReturnType<typeof presentIntegration>;
  /** Revision of the integration's stream, for the ETag. */
  revision: number;
}

/** One integration: public and unlisted ones for anyone with a token, private ones for the owner's members. */
export class GetIntegrationQuery extends Query<IntegrationView> {
  constructor(
    readonly name: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetIntegrationQuery)
export class GetIntegrationHandler implements IQueryHandler<GetIntegrationQuery> {
  constructor(
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly integrations: IntegrationAccess,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ name, userId }: GetIntegrationQuery): Promise<IntegrationView> {
    const { doc, role } = await this.integrations.visible(name, userId);
    const owner = await this.organizations.profile(doc.organizationId, userId);
    if (!owner) throw new NotFound(`Integration ${name} not found`);
    const administersAny = role === 'admin' || (await this.integrations.administersAny(userId));
    return { body: presentIntegration(doc, owner, role, administersAny, this.urls), revision: doc.revision };
  }
}
