import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import {
  DEFAULT_LIMIT,
  ListQuery,
  NotFound,
  OptionalField,
  PAGE_CURSORS,
  PUBLIC_URLS,
  type PageCursorCodec,
  type PublicUrls,
  QueryFlag,
  URL_SIGNER,
  type UrlSigner,
  READ_STORE,
  type ReadStore,
} from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { type FileNode, allPages } from '../../domain';
import { GetOrganizationQuery } from '@app/identity';
import { ContentAccess } from '../content-access';
import { presentSpace } from '../presenters';
import { REVISIONS, REVISION_LINKS, type RevisionDoc, type RevisionLinksDoc, type SpaceDoc } from '../read-models';
import {
  CHANGE_REQUEST_LOOKUP,
  type ChangeRequestLookup,
  SPACE_ACTIVITY,
  type SpaceActivity,
  activityOf,
} from '../space-activity';
import {
  type DocumentFormat,
  presentFile as presentRevisionFile,
  presentPage,
  presentRevision,
} from './content-presenters';
import { LINK_STATUSES, type LinkContext, type LinkStatus, fileBacklinks, linkUsages } from './links';

/** Options every content read accepts (the spec's `metadata` and `computed`; there is no computed content). */
export class ContentParams {
  @QueryFlag(true)
  metadata?: boolean;

  @QueryFlag(true)
  computed?: boolean;
}

export class PageParams extends ContentParams {
  @ApiPropertyOptional({ enum: ['markdown', 'document'], description: 'Body format (markdown by default)' })
  @OptionalField()
  @IsIn(['markdown', 'document'])
  format?: DocumentFormat;

  @QueryFlag(false)
  evaluated?: boolean;
}

export class FileListParams extends ListQuery {
  @QueryFlag(true)
  metadata?: boolean;

  @QueryFlag(true)
  computed?: boolean;
}

export class LinkListParams extends FileListParams {
  @ApiPropertyOptional({ enum: LINK_STATUSES, description: 'Only links with this status' })
  @OptionalField()
  @IsIn(LINK_STATUSES)
  status?: LinkStatus;
}

export type ContentRead =
  | { kind: 'revision'; revisionId?: string }
  | { kind: 'pages' }
  | { kind: 'page'; pageId: string; format?: DocumentFormat }
  | { kind: 'files'; params: FileListParams }
  | { kind: 'file'; fileId: string }
  | { kind: 'links'; status?: LinkStatus; params: ListQuery }
  | { kind: 'page-links'; pageId: string; params: ListQuery }
  | { kind: 'file-backlinks'; fileId: string; params: ListQuery };

export class ReadContentQuery extends Query<unknown> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly read: ContentRead,
    /** Read this revision of the space instead of the current one (a change request's content). */
    readonly revisionId?: string,
  ) {
    super();
  }
}

/** Reads of a space's content: one lookup of the stored revision, never a replay of its history. */
@QueryHandler(ReadContentQuery)
export class ReadContentHandler implements IQueryHandler<ReadContentQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Inject(URL_SIGNER) private readonly signer: UrlSigner,
    private readonly access: ContentAccess,
    private readonly queries: QueryBus,
    @Optional() @Inject(CHANGE_REQUEST_LOOKUP) private readonly changeRequests?: ChangeRequestLookup,
    @Optional() @Inject(SPACE_ACTIVITY) private readonly activity?: SpaceActivity,
  ) {}

  async execute({ spaceId, userId, read, revisionId: pinned }: ReadContentQuery): Promise<unknown> {
    const { space, role } = await this.access.requireSpace(spaceId, userId, 'read', 'read its content');
    const revisionId = read.kind === 'revision' && read.revisionId ? read.revisionId : (pinned ?? space.revision);
    const presentFile = (file: FileNode) => presentRevisionFile(file, this.urls, this.signer);
    const revision = await this.store.get<RevisionDoc>(REVISIONS, revisionId);
    if (!revision || revision.spaceId !== spaceId) throw new NotFound(`Revision ${revisionId} not found`);
    switch (read.kind) {
      case 'revision': {
        const body: Record<string, unknown> = presentRevision(revision, this.urls, this.signer);
        if (revision.type === 'merge' && revision.mergedFrom && this.changeRequests) {
          body.mergedFrom = await this.changeRequests.changeRequest(spaceId, revision.mergedFrom, userId);
        }
        return body;
      }
      case 'pages':
        return { pages: revision.pages.map((page) => presentPage(page, spaceId, this.urls)) };
      case 'page': {
        for (const page of allPages(revision.pages)) {
          if (page.id === read.pageId) return presentPage(page, spaceId, this.urls, read.format);
        }
        throw new NotFound(`Page ${read.pageId} not found`);
      }
      case 'file': {
        const file = revision.files.find((candidate) => candidate.id === read.fileId);
        if (!file) throw new NotFound(`File ${read.fileId} not found`);
        return presentFile(file);
      }
      case 'files':
        // Files live inside the revision document: page through them by position, with a signed cursor.
        return this.paged(`files:${spaceId}:${revision.id}`, read.params, revision.files, presentFile);
      case 'links': {
        const usages = linkUsages(await this.links(revision), await this.linkContext(revision, space, role, userId), {
          status: read.status,
        });
        const scope = `links:${spaceId}:${revision.id}:${read.status ?? ''}`;
        return { ...this.paged(scope, read.params, usages.items, (item) => item), stats: usages.stats };
      }
      case 'page-links': {
        if (![...allPages(revision.pages)].some((page) => page.id === read.pageId)) {
          throw new NotFound(`Page ${read.pageId} not found`);
        }
        const usages = linkUsages(await this.links(revision), await this.linkContext(revision, space, role, userId), {
          from: read.pageId,
        });
        const scope = `page-links:${spaceId}:${revision.id}:${read.pageId}`;
        return { ...this.paged(scope, read.params, usages.items, (item) => item), stats: usages.stats };
      }
      case 'file-backlinks': {
        if (!revision.files.some((file) => file.id === read.fileId))
          throw new NotFound(`File ${read.fileId} not found`);
        const locations = fileBacklinks(
          await this.links(revision),
          read.fileId,
          await this.linkContext(revision, space, role, userId),
        );
        return this.paged(`backlinks:${spaceId}:${revision.id}:${read.fileId}`, read.params, locations, (item) => item);
      }
    }
  }

  /** A page of a list kept inside one document, by position, with a signed cursor. */
  private paged<T, R>(scope: string, params: ListQuery, all: readonly T[], present: (item: T) => R) {
    const after = this.cursors.decode(scope, params.page);
    const start = after ? Number(after.id) : 0;
    const limit = params.limit ?? DEFAULT_LIMIT;
    const items = all.slice(start, start + limit).map(present);
    const end = start + items.length;
    return {
      items,
      count: all.length,
      ...(limit > 0 && end < all.length
        ? { next: { page: this.cursors.encode(scope, { values: [], id: String(end) }) } }
        : {}),
    };
  }

  /** The references of a revision, from its projection (empty until the projection has reached it). */
  private async links(revision: RevisionDoc): Promise<RevisionLinksDoc> {
    return (
      (await this.store.get<RevisionLinksDoc>(REVISION_LINKS, revision.id)) ?? {
        id: revision.id,
        spaceId: revision.spaceId,
        references: [],
      }
    );
  }

  /** What link locations show: the space (as the caller sees it, with its counters) and its organization. */
  private async linkContext(
    revision: RevisionDoc,
    space: SpaceDoc,
    role: RoleOrGuest,
    userId: string,
  ): Promise<LinkContext> {
    const counts = await activityOf(this.activity, [space.id]);
    const organization = await this.queries.execute(new GetOrganizationQuery(space.organizationId, userId));
    return {
      revision,
      space: presentSpace(space, role, this.urls, counts.get(space.id)),
      organization: organization.body,
      urls: this.urls,
      signer: this.signer,
    };
  }
}
