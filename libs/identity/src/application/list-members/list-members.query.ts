import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  DEFAULT_LIMIT,
  type FindCursor,
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
import { People, type Person } from '../personal-data/people';
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

type MemberBody = ReturnType<typeof presentMember>;

export class ListMembersQuery extends Query<ListResponse<MemberBody>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: ListMembersParams,
  ) {
    super();
  }
}

type Row = { member: MemberDoc; person: Person };

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Members read per query while gathering a whole organization. */
const BATCH = 1000;

@QueryHandler(ListMembersQuery)
export class ListMembersHandler implements IQueryHandler<ListMembersQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: OrganizationAccess,
    private readonly people: People,
  ) {}

  async execute({ organizationId, userId, params }: ListMembersQuery): Promise<ListResponse<MemberBody>> {
    const role = await this.access.requireMember(organizationId, userId);
    if (!organizationPermissions(role).listMembers)
      throw new Forbidden('You may not list the members of this organization');
    const filter: Filter = { organizationId };
    if (params.role) filter.role = params.role === 'guest' ? null : params.role;
    const direction = params.order === 'asc' ? 1 : -1;
    const sortField = params.sort === 'name' ? 'displayName' : 'joinedAt';
    const scope = `members:${organizationId}:${params.role ?? ''}:${params.search ?? ''}:${sortField}:${direction}`;
    if (!params.search && sortField === 'joinedAt') {
      const page = await readPage<MemberDoc, MemberDoc>(
        this.store,
        this.cursors,
        { collection: MEMBERS, scope, filter, sort: [['joinedAt', direction]], query: params },
        (member) => member,
      );
      const people = await this.people.byIds(page.items.map((member) => member.userId));
      return {
        ...page,
        items: page.items.map((member) => presentMember(member, people.get(member.userId)!, this.urls)),
      };
    }
    return this.byPerson(filter, scope, sortField, direction, params);
  }

  /**
   * Names and addresses are sealed in the read models, so the store can neither search nor sort by them: a
   * search, or a sort by name, opens every member of the organization (that the role filter keeps) and pages in
   * memory, with the same signed keyset cursors (name or join time, then id) as the store would use.
   */
  private async byPerson(
    filter: Filter,
    scope: string,
    sortField: 'displayName' | 'joinedAt',
    direction: 1 | -1,
    params: ListMembersParams,
  ): Promise<ListResponse<MemberBody>> {
    const cursor = this.cursors.decode(scope, params.page);
    const members = await this.allMembers(filter);
    const people = await this.people.byIds(members.map((member) => member.userId));
    let rows: Row[] = members.map((member) => ({ member, person: people.get(member.userId)! }));
    if (params.search) {
      const needle = params.search.toLowerCase();
      rows = rows.filter(
        ({ person }) =>
          person.displayName.toLowerCase().includes(needle) || (person.email ?? '').toLowerCase().includes(needle),
      );
    }
    const keyOf = (row: Row) => (sortField === 'displayName' ? row.person.displayName : row.member.joinedAt);
    // Ties are broken by id ascending whatever the direction, as the read store does.
    const order = (a: { key: string; id: string }, b: { key: string; id: string }) =>
      compareText(a.key, b.key) * direction || compareText(a.id, b.id);
    const keyed = rows.map((row) => ({ row, key: keyOf(row), id: row.member.id }));
    keyed.sort(order);
    let from = 0;
    if (cursor) {
      const last = { key: String(cursor.values[0] ?? ''), id: cursor.id };
      from = keyed.findIndex((entry) => order(entry, last) > 0);
      if (from < 0) from = keyed.length;
    }
    const limit = params.limit ?? DEFAULT_LIMIT;
    const page = keyed.slice(from, from + limit);
    const response: ListResponse<MemberBody> = {
      items: page.map(({ row }) => presentMember(row.member, row.person, this.urls)),
      count: keyed.length,
    };
    const last = page[page.length - 1];
    if (last && from + limit < keyed.length) {
      response.next = { page: this.cursors.encode(scope, { values: [last.key], id: last.id }) };
    }
    return response;
  }

  private async allMembers(filter: Filter): Promise<MemberDoc[]> {
    const members: MemberDoc[] = [];
    let after: FindCursor | undefined;
    do {
      const batch = await this.store.find<MemberDoc>(MEMBERS, { filter, sort: [['joinedAt', 1]], limit: BATCH, after });
      members.push(...batch.items);
      after = batch.next;
    } while (after);
    return members;
  }
}
