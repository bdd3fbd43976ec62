import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import {
  type Filter,
  ListQuery,
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
import { IntegrationAccess } from '../integration-access';
import { INTEGRATION_INSTALLATIONS, type InstallationDoc } from '../integration-read-models';
import { presentInstallation } from '../integration-presenters';
import { installationSpaces } from '../get-installation/get-installation.query';

export class ListInstallationsParams extends ListQuery {
  @ApiPropertyOptional({ maxLength: 256, description: 'Only installations holding this external id' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  externalId?: string;
}

/**
 * The installations of an integration, oldest first: all of them for the admins of the organization that owns it;
 * for anyone else who can see the integration, those in the organizations they administer.
 */
export class ListInstallationsQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly name: string,
    readonly userId: string,
    readonly params: ListInstallationsParams,
  ) {
    super();
  }
}

@QueryHandler(ListInstallationsQuery)
export class ListInstallationsHandler implements IQueryHandler<ListInstallationsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly integrations: IntegrationAccess,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ name, userId, params }: ListInstallationsQuery) {
    const { role } = await this.integrations.visible(name, userId);
    const filter: Filter = { integration: name };
    if (role !== 'admin') {
      const administered: string[] = [];
      for (const organizationId of await this.organizations.organizationsOf(userId)) {
        if ((await this.organizations.membership(organizationId, userId))?.role === 'admin') {
          administered.push(organizationId);
        }
      }
      filter.organizationId = { $in: administered };
    }
    if (params.externalId !== undefined) filter.externalIds = { $has: params.externalId };
    const page = await readPage<InstallationDoc, InstallationDoc>(
      this.store,
      this.cursors,
      {
        collection: INTEGRATION_INSTALLATIONS,
        scope: `installations:${name}:${userId}:${params.externalId ?? ''}`,
        filter,
        sort: [['createdAt', 1]],
        query: params,
      },
      (doc) => doc,
    );
    const items = await Promise.all(
      page.items.map(async (doc) => presentInstallation(doc, await installationSpaces(this.store, doc), this.urls)),
    );
    return { ...page, items };
  }
}
