import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
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
import { type FileNode, allPages } from '../../domain';
import { ContentAccess } from '../content-access';
import { REVISIONS, type RevisionDoc } from '../read-models';
import { CHANGE_REQUEST_LOOKUP, type ChangeRequestLookup } from '../space-activity';
import {
  type DocumentFormat,
  presentFile as presentRevisionFile,
  presentPage,
  presentRevision,
} from './content-presenters';

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

export type ContentRead =
  | { kind: 'revision'; revisionId?: string }
  | { kind: 'pages' }
  | { kind: 'page'; pageId: string; format?: DocumentFormat }
  | { kind: 'files'; params: FileListParams }
  | { kind: 'file'; fileId: string };

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
    @Optional() @Inject(CHANGE_REQUEST_LOOKUP) private readonly changeRequests?: ChangeRequestLookup,
  ) {}

  async execute({ spaceId, userId, read, revisionId: pinned }: ReadContentQuery): Promise<unknown> {
    const { space } = await this.access.requireSpace(spaceId, userId, 'read', 'read its content');
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
      case 'files': {
        // Files live inside the revision document: page through them by position, with a signed cursor.
        const scope = `files:${spaceId}:${revision.id}`;
        const after = this.cursors.decode(scope, read.params.page);
        const start = after ? Number(after.id) : 0;
        const limit = read.params.limit ?? DEFAULT_LIMIT;
        const items = revision.files.slice(start, start + limit).map(presentFile);
        const end = start + items.length;
        return {
          items,
          count: revision.files.length,
          ...(limit > 0 && end < revision.files.length
            ? { next: { page: this.cursors.encode(scope, { values: [], id: String(end) }) } }
            : {}),
        };
      }
    }
  }
}
