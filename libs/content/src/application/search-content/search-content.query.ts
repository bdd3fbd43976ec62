import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import {
  DEFAULT_LIMIT,
  type Filter,
  ListQuery,
  type ListResponse,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PageHit,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  SEARCH_INDEX,
  type SearchIndex,
  ValidationFailed,
} from '@app/kernel';
import { characterCount } from '@app/kernel/domain';
import { ContentAccess } from '../content-access';
import { SPACES, type SpaceDoc } from '../read-models';
import { SEARCH_PAGES, SearchIndexer } from './search-indexer';

export const QUERY_MAX = 512;
/** Pages listed under each space of an organization search. */
export const PAGES_PER_SPACE = 5;

export class SearchParams extends ListQuery {
  @ApiProperty({
    description: `Words to find, 1..${QUERY_MAX} characters; "quoted words" are a phrase, the last word is also a prefix`,
    maxLength: QUERY_MAX,
  })
  @IsString()
  query!: string;
}

export interface SearchSectionBody {
  id: string;
  title: string;
  path: string;
  /** Plain text around the match; matched words are between `**` marks. */
  body: string;
  urls: { app: string };
}

export interface SearchPageBody {
  id: string;
  title: string;
  path: string;
  sections: SearchSectionBody[];
  urls: { app: string };
}

export interface SearchSpaceBody {
  id: string;
  title: string;
  pages: SearchPageBody[];
}

export class SearchOrganizationQuery extends Query<ListResponse<SearchSpaceBody>> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: SearchParams,
  ) {
    super();
  }
}

export class SearchSpaceQuery extends Query<ListResponse<SearchPageBody>> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly params: SearchParams,
  ) {
    super();
  }
}

/** The query text, checked: 1..512 characters counted as code points, and not only whitespace. */
function queryText(params: SearchParams): string {
  const text = params.query;
  if (text.trim().length === 0) throw new ValidationFailed('query: must not be empty');
  if (characterCount(text) > QUERY_MAX) throw new ValidationFailed(`query: at most ${QUERY_MAX} characters`);
  return text;
}

/** A page cursor names the list and the query (by digest: cursors stay short), and holds the offset. */
function scopeOf(list: string, text: string): string {
  return `search:${list}:${createHash('sha256').update(text).digest('base64url')}`;
}

function window(cursors: PageCursorCodec, scope: string, params: SearchParams) {
  const cursor = cursors.decode(scope, params.page);
  const offset = cursor ? Number(cursor.values[0]) : 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new ValidationFailed('page: not a valid page cursor');
  return { offset, limit: params.limit ?? DEFAULT_LIMIT };
}

function envelope<T>(
  cursors: PageCursorCodec,
  scope: string,
  items: T[],
  total: number,
  offset: number,
  limit: number,
) {
  const response: ListResponse<T> = { items, count: total };
  if (limit > 0 && offset + limit < total) {
    response.next = { page: cursors.encode(scope, { values: [offset + limit], id: '' }) };
  }
  return response;
}

function presentPage(hit: PageHit, urls: PublicUrls): SearchPageBody {
  const app = (path: string) => `${urls.app}/s/${hit.spaceId}/${path}`;
  return {
    id: hit.pageId,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((section) => {
      // The text before the first heading has no anchor: it is the top of the page.
      const path = section.id === '' ? hit.path : `${hit.path}#${section.id}`;
      return {
        id: section.id || hit.pageId,
        title: section.title,
        path,
        body: section.snippet,
        urls: { app: app(path) },
      };
    }),
    urls: { app: app(hit.path) },
  };
}

/**
 * Full-text search of an organization's live content: the spaces the caller can read (computed by the same
 * access code as the list of spaces, so grants and default levels count the same), each with its best pages.
 */
@QueryHandler(SearchOrganizationQuery)
export class SearchOrganizationHandler implements IQueryHandler<SearchOrganizationQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(SEARCH_INDEX) private readonly index: SearchIndex,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: ContentAccess,
    private readonly indexer: SearchIndexer,
  ) {}

  async execute({ organizationId, userId, params }: SearchOrganizationQuery) {
    const text = queryText(params);
    const viewer = await this.access.viewer(organizationId, userId);
    const scope = scopeOf(`orgs:${organizationId}`, text);
    const { offset, limit } = window(this.cursors, scope, params);
    // The spaces the organization's list of spaces would show this caller, as `listVisible` filters them.
    const visible = await this.access.visibleFilter(viewer);
    const base: Filter = { organizationId, deleted: false };
    const filter: Filter = visible ? { ...base, $or: visible.$or } : base;
    const spaces = await this.store.find<SpaceDoc>(SPACES, { filter, limit: Number.MAX_SAFE_INTEGER });
    const byId = new Map(spaces.items.map((space) => [space.id, space]));
    await this.indexer.catchUp();
    const answer = await this.index.searchSpaces(SEARCH_PAGES, {
      text,
      spaces: [...byId.keys()],
      group: 'space',
      offset,
      limit,
      pagesPerSpace: PAGES_PER_SPACE,
    });
    const items = answer.hits.map((hit) => ({
      id: hit.spaceId,
      title: byId.get(hit.spaceId)?.title ?? '',
      pages: hit.pages.map((page) => presentPage(page, this.urls)),
    }));
    return envelope(this.cursors, scope, items, answer.total, offset, limit);
  }
}

/** Full-text search of one space's live content (404 for a space the caller cannot read). */
@QueryHandler(SearchSpaceQuery)
export class SearchSpaceHandler implements IQueryHandler<SearchSpaceQuery> {
  constructor(
    @Inject(SEARCH_INDEX) private readonly index: SearchIndex,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: ContentAccess,
    private readonly indexer: SearchIndexer,
  ) {}

  async execute({ spaceId, userId, params }: SearchSpaceQuery) {
    const text = queryText(params);
    await this.access.requireSpace(spaceId, userId, 'read', 'search it');
    const scope = scopeOf(`spaces:${spaceId}`, text);
    const { offset, limit } = window(this.cursors, scope, params);
    await this.indexer.catchUp();
    const answer = await this.index.searchPages(SEARCH_PAGES, {
      text,
      spaces: [spaceId],
      group: 'page',
      offset,
      limit,
    });
    const items = answer.hits.map((hit) => presentPage(hit, this.urls));
    return envelope(this.cursors, scope, items, answer.total, offset, limit);
  }
}
