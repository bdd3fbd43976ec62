import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  type Filter,
  ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  QueryFlag,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import { IntegrationAccess } from '../integration-access';
import { INTEGRATION_CATEGORIES, INTEGRATION_NAME, INTEGRATION_SCOPES, INTEGRATION_TARGETS } from '../../domain';
import { INTEGRATIONS, type IntegrationDoc } from '../integration-read-models';
import { presentIntegration } from '../integration-presenters';

/** The seed's filters, and the spec's `scope` and `target`. */
export class ListIntegrationsParams extends ListQuery {
  @ApiPropertyOptional({ maxLength: 100, description: 'Part of the name, in any case' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ enum: INTEGRATION_CATEGORIES })
  @IsOptional()
  @IsIn(INTEGRATION_CATEGORIES)
  category?: string;

  @ApiPropertyOptional({
    maxLength: INTEGRATION_NAME.max,
    description: 'Integrations with a block that unfurls URLs of this host or of any of its subdomains',
  })
  @IsOptional()
  @IsString()
  @MaxLength(INTEGRATION_NAME.max)
  @Matches(INTEGRATION_NAME.pattern, { message: 'blockDomain must be letters, digits, dashes, underscores or dots' })
  blockDomain?: string;

  @QueryFlag(undefined, 'true: only integrations with blocks; false: only those without')
  blocks?: boolean;

  @QueryFlag(undefined, 'true: only integrations with content sources; false: only those without')
  contentSources?: boolean;

  @ApiPropertyOptional({ description: 'Only integrations owned by this organization (id or hostname)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  owner?: string;

  @ApiPropertyOptional({ enum: INTEGRATION_SCOPES })
  @IsOptional()
  @IsIn(INTEGRATION_SCOPES)
  scope?: string;

  @ApiPropertyOptional({ enum: INTEGRATION_TARGETS })
  @IsOptional()
  @IsIn(INTEGRATION_TARGETS)
  target?: string;
}

/**
 * Integrations by name: public ones for everyone, private and unlisted ones also for the members of the
 * organizations that own them.
 */
export class ListIntegrationsQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly userId: string,
    readonly params: ListIntegrationsParams,
  ) {
    super();
  }
}

@QueryHandler(ListIntegrationsQuery)
export class ListIntegrationsHandler implements IQueryHandler<ListIntegrationsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly organizations: OrganizationAccess,
    private readonly integrations: IntegrationAccess,
  ) {}

  async execute({ userId, params }: ListIntegrationsQuery) {
    const memberOf = await this.organizations.organizationsOf(userId);
    const filter: Filter = {};
    filter.$or =
      memberOf.length > 0
        ? [{ visibility: 'public' }, { organizationId: { $in: memberOf } }]
        : [{ visibility: 'public' }];
    if (params.search) filter.name = { $contains: params.search };
    if (params.category) filter.categories = { $has: params.category };
    if (params.blockDomain) filter.blockDomains = { $has: params.blockDomain.toLowerCase() };
    if (params.blocks !== undefined) filter.hasBlocks = params.blocks;
    if (params.contentSources !== undefined) filter.hasContentSources = params.contentSources;
    if (params.scope) filter.scopes = { $has: params.scope };
    if (params.target) filter.target = params.target;
    if (params.owner !== undefined) {
      filter.organizationId = (await this.organizations.idOfHostname(params.owner)) ?? params.owner;
    }
    const { page: _page, limit: _limit, ...filters } = params;
    const administersAny = await this.integrations.administersAny(userId);
    const owners = new Map<string, Promise<Record<string, unknown> | undefined>>();
    const page = await readPage<IntegrationDoc, IntegrationDoc>(
      this.store,
      this.cursors,
      {
        collection: INTEGRATIONS,
        scope: `integrations:${userId}:${JSON.stringify(filters)}`,
        filter,
        sort: [['name', 1]],
        query: params,
      },
      (doc) => doc,
    );
    const items = await Promise.all(
      page.items.map(async (doc) => {
        if (!owners.has(doc.organizationId)) {
          owners.set(doc.organizationId, this.organizations.profile(doc.organizationId, userId));
        }
        const owner = (await owners.get(doc.organizationId)) ?? { id: doc.organizationId };
        const membership = memberOf.includes(doc.organizationId)
          ? await this.organizations.membership(doc.organizationId, userId)
          : undefined;
        return presentIntegration(doc, owner, membership?.role, administersAny, this.urls);
      }),
    );
    return { ...page, items };
  }
}
