import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ContentParams, type ContentRead, FileListParams, PageParams } from '@app/content';
import { ReadChangeRequestContentQuery } from './read-change-request-content.query';

const BASE = 'spaces/:spaceId/change-requests/:changeRequestId/content';

@ApiTags('change-requests')
@Controller()
export class ReadChangeRequestContentController {
  constructor(private readonly queries: QueryBus) {}

  private read(actor: Actor, spaceId: string, changeRequestId: string, read: ContentRead) {
    return this.queries.execute(new ReadChangeRequestContentQuery(spaceId, changeRequestId, actor.userId, read));
  }

  @Get(BASE)
  @ApiOperation({ operationId: 'getRevisionOfChangeRequest', summary: "The change request's current revision" })
  revision(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() _params: ContentParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'revision' });
  }

  @Get(`${BASE}/pages`)
  @ApiOperation({ operationId: 'listPagesInChangeRequest', summary: 'The page tree of a change request' })
  pages(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() _params: ContentParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'pages' });
  }

  @Get(`${BASE}/page/:pageId`)
  @ApiOperation({ operationId: 'getPageInChangeRequestById', summary: 'A page of a change request' })
  page(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() params: PageParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'page', pageId, format: params.format });
  }

  @Get(`${BASE}/files`)
  @ApiOperation({ operationId: 'listFilesInChangeRequestById', summary: 'The files of a change request' })
  files(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: FileListParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'files', params });
  }

  @Get(`${BASE}/files/:fileId`)
  @ApiOperation({ operationId: 'getFileInChangeRequestById', summary: 'A file of a change request' })
  file(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('fileId') fileId: string,
    @Query() _params: ContentParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'file', fileId });
  }

  @Get(`${BASE}/page/:pageId/links`)
  @ApiOperation({ operationId: 'listPageLinksInChangeRequest', summary: 'The links of one page of a change request' })
  pageLinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() params: FileListParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'page-links', pageId, params });
  }

  @Get(`${BASE}/files/:fileId/backlinks`)
  @ApiOperation({
    operationId: 'listChangeRequestFileBacklinks',
    summary: 'The pages of a change request that link to one of its files',
  })
  backlinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('fileId') fileId: string,
    @Query() params: FileListParams,
  ) {
    return this.read(actor, spaceId, changeRequestId, { kind: 'file-backlinks', fileId, params });
  }
}
