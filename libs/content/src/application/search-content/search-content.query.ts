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
  JsonText,
  SEARCH_INDEX,
  type SearchAnswer,
  type SearchIndex,
  ValidationFailed,
  listJson,
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

/** A page of spaces found: the JSON text (UTF-8) of the list envelope (`{items, next?, count}`). */
export class SearchOrganizationQuery extends Query<JsonText> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly params: SearchParams,
  ) {
    super();
  }
}

/** A page of pages found: the JSON text (UTF-8) of the list envelope (`{items, next?, count}`). */
export class SearchSpaceQuery extends Query<JsonText> {
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

/** The JSON text of a page of results, as UTF-8: the envelope joined (`listJson`) with its items' JSON. */
function envelopeJson(
  cursors: PageCursorCodec,
  scope: string,
  items: readonly unknown[],
  total: number,
  offset: number,
  limit: number,
): JsonText {
  const response: ListResponse<never> = { items: [], count: total };
  if (limit > 0 && offset + limit < total) {
    response.next = { page: cursors.encode(scope, { values: [offset + limit], id: '' }) };
  }
  return new JsonText(
    listJson(
      response,
      items.map((item) => Buffer.from(JSON.stringify(item))),
    ),
  );
}

/** A body answered, and what it was made from besides the index's answer. */
interface KeptBody {
  scope: string;
  /** The titles of the spaces listed (the read store's, which the index does not hold). */
  titles: string;
  body: JsonText;
}

/**
 * The bodies answered, each kept with the index's answer it presents. The SQLite index hands out the same frozen
 * answer to a request made again while nothing was written to it (see its `cached`), so a search box's repeated
 * request skips presenting, serialising and encoding the answer again: for an organization search of `the` (82
 * KB) that was most of the request. An adapter that answers fresh objects only misses. The body is UTF-8 bytes,
 * so that Fastify sends it as it is (no serialisation, no `Buffer.byteLength`, no encoding on the socket).
 */
class KeptAnswerBodies {
  private readonly kept = new WeakMap<SearchAnswer<unknown>, KeptBody>();

  body(answer: SearchAnswer<unknown>, scope: string, titles: string, make: () => JsonText): JsonText {
    const known = this.kept.get(answer);
    if (known && known.scope === scope && known.titles === titles) return known.body;
    const body = make();
    this.kept.set(answer, { scope, titles, body });
    return body;
  }
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
  private readonly bodies = new KeptAnswerBodies();

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
    const titles = answer.hits.map((hit) => byId.get(hit.spaceId)?.title ?? '');
    return this.bodies.body(answer, scope, titles.join('\u0000'), () => {
      const items: SearchSpaceBody[] = answer.hits.map((hit, n) => ({
        id: hit.spaceId,
        title: titles[n],
        pages: hit.pages.map((page) => presentPage(page, this.urls)),
      }));
      return envelopeJson(this.cursors, scope, items, answer.total, offset, limit);
    });
  }
}

/** Full-text search of one space's live content (404 for a space the caller cannot read). */
@QueryHandler(SearchSpaceQuery)
export class SearchSpaceHandler implements IQueryHandler<SearchSpaceQuery> {
  private readonly bodies = new KeptAnswerBodies();

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
    return this.bodies.body(answer, scope, '', () =>
      envelopeJson(
        this.cursors,
        scope,
        answer.hits.map((hit) => presentPage(hit, this.urls)),
        answer.total,
        offset,
        limit,
      ),
    );
  }
}
