import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import {
  BLOB_STORE,
  type BlobStore,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  NotFound,
  OptionalField,
  PUBLIC_URLS,
  type PublicUrls,
  QueryFlag,
  URL_SIGNER,
  type UrlSigner,
} from '@app/kernel';
import { type PageNode, loadRevision } from '@app/content';
import { ReviewAccess } from '../review-access';
import { renderPdf } from './render-pdf';

export class ExportPdfParams {
  @ApiPropertyOptional({ description: 'Only the page given by `page`, without its sub-pages' })
  @QueryFlag(false)
  only?: boolean;

  @ApiPropertyOptional({ description: 'The page to export (with its sub-pages unless `only`); all pages by default' })
  @OptionalField()
  @IsString()
  @MaxLength(200)
  page?: string;
}

export class ExportPdfQuery extends Query<{ url: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly params: ExportPdfParams,
  ) {
    super();
  }
}

/** How long the address of an exported PDF works. */
export const PDF_URL_TTL_MS = 60 * 60 * 1000;

/**
 * A PDF of a change request's pages (read role), rendered from its current revision, kept in the BlobStore (the
 * same content gives the same file) and handed out at a signed address that expires after an hour.
 */
@QueryHandler(ExportPdfQuery)
export class ExportPdfHandler implements IQueryHandler<ExportPdfQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(URL_SIGNER) private readonly signer: UrlSigner,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ReviewAccess,
  ) {}

  async execute({ spaceId, changeRequestId, userId, params }: ExportPdfQuery): Promise<{ url: string }> {
    const { request } = await this.access.requireChangeRequest(spaceId, changeRequestId, userId, 'read', 'export it');
    const revision = await loadRevision(this.events, request.revision, spaceId);
    const selected: { title: string; depth: number; markdown: string }[] = [];
    const add = (pages: readonly PageNode[], depth: number) => {
      for (const page of pages) {
        selected.push({ title: page.title, depth, markdown: page.markdown });
        add(page.pages, depth + 1);
      }
    };
    if (params.page !== undefined) {
      const page = findPage(revision.pages, params.page);
      if (!page) throw new NotFound(`Page ${params.page} not found`);
      if (params.only) selected.push({ title: page.title, depth: 0, markdown: page.markdown });
      else add([page], 0);
    } else if (params.only) {
      throw new NotFound('only needs a page');
    } else add(revision.pages, 0);
    const pdf = await renderPdf({
      title: request.subject || `Change request #${request.number}`,
      pages: selected,
      createdAt: revision.createdAt,
    });
    const { key } = await this.blobs.put(pdf);
    const path = `/blobs/${key}`;
    const signed = this.signer.sign(path, this.clock.now().getTime() + PDF_URL_TTL_MS);
    return { url: `${this.urls.api}${path}?${signed}&type=application/pdf` };
  }
}

function findPage(pages: readonly PageNode[], id: string): PageNode | undefined {
  for (const page of pages) {
    if (page.id === id) return page;
    const inner = findPage(page.pages, id);
    if (inner) return inner;
  }
  return undefined;
}
