import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { SPACES } from '@app/content';
import { OrganizationAccess } from '@app/identity';
import { INTEGRATION_INSTALLATIONS, type InstallationDoc } from '../integration-read-models';
import { presentInstallation } from '../integration-presenters';

export interface InstallationView {
  body: ReturnType<typeof presentInstallation>;
}

/**
 * `spaces` of an installation: every live space of the organization when `space_selection` is `all`; with
 * `selected`, the spaces picked for it, and none can be picked yet (the spec's installation-spaces endpoints are
 * not served).
 */
export async function installationSpaces(store: ReadStore, doc: InstallationDoc): Promise<number> {
  if (doc.space_selection !== 'all') return 0;
  return store.count(SPACES, { organizationId: doc.organizationId, deleted: false });
}

/** One installation, for the admins of the organization it is installed in. */
export class GetInstallationQuery extends Query<InstallationView> {
  constructor(
    readonly name: string,
    readonly installationId: string,
    readonly userId: string,
  ) {
    super();
  }
}

@QueryHandler(GetInstallationQuery)
export class GetInstallationHandler implements IQueryHandler<GetInstallationQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ name, installationId, userId }: GetInstallationQuery): Promise<InstallationView> {
    const doc = await this.store.get<InstallationDoc>(INTEGRATION_INSTALLATIONS, installationId);
    if (!doc || doc.integration !== name) throw new NotFound(`Installation ${installationId} not found`);
    const membership = await this.organizations.membership(doc.organizationId, userId);
    if (!membership) throw new NotFound(`Installation ${installationId} not found`);
    await this.organizations.requireRole(doc.organizationId, userId, 'admin', 'read its installations');
    const spaces = await installationSpaces(this.store, doc);
    return { body: presentInstallation(doc, spaces, this.urls) };
  }
}
