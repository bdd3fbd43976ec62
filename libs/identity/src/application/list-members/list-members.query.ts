import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  Forbidden,
  type Filter,
  ListQuery,
  type ListResponse,
  OptionalField,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { ROLES } from '@app/kernel/domain';
import { organizationPermissions } from '../../domain/organization-permissions';
import { OrganizationAccess } from '../../public/organization-access';
import { presentMember } from '../presenters';
import { MEMBERS, type MemberDoc } from '../read-models';

export class ListMembersParams extends ListQuery {
  @ApiPropertyOptional({ enum: [...ROLES, 'guest'], description: 'Only members with this role' })
  @OptionalField()
  @IsIn([...ROLES, 'guest'])
  role?: (typeof ROLES)[number] | 'guest';

  @ApiPropertyOptional({ description: 'Text to find in the display name or email', maxLength: 256 })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  search?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @OptionalField()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ enum: ['joinedAt', 'name'], default: 'joinedAt' })
  @OptionalField()
  @IsIn(['joinedAt', 'name'])
  sort?: 'joinedAt' | 'name';
}

export class ListMembersQuery extends Query<ListResponse<ReturnType<typeof presentMember>>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListMembersParams,
  ) {
    super();
  }
}

@QueryHandler(ListMembersQuery)
export class ListMembersHandler implements IQueryHandler<ListMembersQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: OrganizationAccess,
  ) {}

  async execute({ organizationId, userId, params }: ListMembersQuery) {
    const role = await this.access.requireMember(organizationId, userId);
    if (!organizationPermissions(role).listMembers)
      throw new Forbidden('You may not list the members of this organization');
    const filter: Filter = { organizationId };
    if (params.role) filter.role = params.role === 'guest' ? null : params.role;
    if (params.search)
      filter.$or = [{ displayName: { $contains: params.search } }, { email: { $contains: params.search } }];
    const direction = params.order === 'asc' ? 1 : -1;
    const sortField = params.sort === 'name' ? 'displayName' : 'joinedAt';
    return readPage<MemberDoc, ReturnType<typeof presentMember>>(
      this.store,
      this.cursors,
      {
        collection: MEMBERS,
        scope: `members:${organizationId}:${params.role ?? ''}:${params.search ?? ''}:${sortField}:${direction}`,
        filter,
        sort: [[sortField, direction]],
        query: params,
      },
      (member) => presentMember(member, this.urls),
    );
  }
}
