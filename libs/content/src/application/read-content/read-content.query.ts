import { Inject } from '@nestjs/common';
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
  READ_STORE,
  type ReadStore,
} from '@app/kernel';
import { allPages } from '../../domain';
import { ContentAccess } from '../content-access';
import { REVISIONS, type RevisionDoc } from '../read-models';
import { type DocumentFormat, presentFile, presentPage, presentRevision } from './content-presenters';

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
    private readonly access: ContentAccess,
  ) {}

  async execute({ spaceId, userId, read }: ReadContentQuery): Promise<unknown> {
    const { space } = await this.access.requireSpace(spaceId, userId, 'read', 'read its content');
    const revisionId = read.kind === 'revision' && read.revisionId ? read.revisionId : space.revision;
    const revision = await this.store.get<RevisionDoc>(REVISIONS, revisionId);
    if (!revision || revision.spaceId !== spaceId) throw new NotFound(`Revision ${revisionId} not found`);
    switch (read.kind) {
      case 'revision':
        return presentRevision(revision, this.urls);
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
