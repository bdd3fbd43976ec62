import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import {
  type Filter,
  ListQuery,
  type ListResponse,
  OptionalField,
  PAGE_CURSORS,
  type PageCursorCodec,
  QueryFlag,
  READ_STORE,
  type ReadStore,
} from '@app/kernel';
import { SITE_TYPES, type SiteType } from '../../domain';
import { SITES, type SiteDoc } from '../read-models';
import { SiteAccess } from '../site-access';
import { SiteViews } from '../site-views';

/** `type=a&type=b` and `type=a,b` both give [a, b]. */
const listOf = ({ value }: { value: unknown }) => {
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((one) => typeof one === 'string')) return value;
  return (values as string[])
    .flatMap((one) => one.split(','))
    .map((one) => one.trim())
    .filter(Boolean);
};

export class ListSitesParams extends ListQuery {
  @ApiPropertyOptional({ description: 'Only sites that show this space' })
  @OptionalField()
  @IsString()
  @MaxLength(100)
  space?: string;

  @ApiPropertyOptional({ description: 'Only sites whose title contains this text (any case)' })
  @OptionalField()
  @IsString()
  @MaxLength(128)
  title?: string;

  @QueryFlag(undefined, 'Only published (true) or unpublished (false) sites')
  published?: boolean;

  @ApiPropertyOptional({
    type: [String],
    enum: SITE_TYPES,
    description: 'Only sites of these types (repeated or comma-separated)',
  })
  @OptionalField()
  @Transform(listOf)
  @IsArray()
  @ArrayMaxSize(SITE_TYPES.length)
  @IsIn(SITE_TYPES, { each: true })
  type?: SiteType[];
}

export class ListSitesQuery extends Query<ListResponse<unknown>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListSitesParams,
  ) {
    super();
  }
}

@QueryHandler(ListSitesQuery)
export class ListSitesHandler implements IQueryHandler<ListSitesQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    private readonly access: SiteAccess,
    private readonly views: SiteViews,
  ) {}

  async execute({ organizationId, userId, params }: ListSitesQuery) {
    await this.access.requireOrganization(organizationId, userId, 'read', 'list its sites');
    const filter: Filter = { organizationId };
    if (params.space !== undefined) filter.spaceIds = { $has: params.space };
    if (params.title !== undefined) filter.title = { $contains: params.title };
    if (params.published !== undefined) filter.published = params.published;
    if (params.type !== undefined) filter.type = { $in: params.type };
    const scope = `sites:${organizationId}:${JSON.stringify([params.space, params.title, params.published, params.type])}`;
    const result = await this.store.find<SiteDoc>(SITES, {
      filter,
      sort: [['createdAt', 1]],
      limit: params.limit ?? 100,
      after: this.cursors.decode(scope, params.page),
    });
    const items = [];
    for (const site of result.items) items.push(this.views.site(await this.views.summary(site)));
    const response: ListResponse<unknown> = { items, count: result.total };
    if (result.next) response.next = { page: this.cursors.encode(scope, result.next) };
    return response;
  }
}
