import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ContentParams, FileListParams, LinkListParams, PageParams, ReadContentQuery } from './read-content.query';

@ApiTags('content')
@Controller()
export class ReadContentController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/content')
  @ApiOperation({ operationId: 'getCurrentRevision', summary: "The space's current revision" })
  current(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() _params: ContentParams) {
    return this.queries.execute(new ReadContentQuery(spaceId, actor.userId, { kind: 'revision' }));
  }

  @Get('spaces/:spaceId/content/pages')
  @ApiOperation({ operationId: 'listPages', summary: 'The page tree of the current revision' })
  pages(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() _params: ContentParams) {
    return this.queries.execute(new ReadContentQuery(spaceId, actor.userId, { kind: 'pages' }));
  }

  @Get('spaces/:spaceId/content/page/:pageId')
  @ApiOperation({ operationId: 'getPageById', summary: 'A page of the current revision, as markdown or a document' })
  page(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('pageId') pageId: string,
    @Query() params: PageParams,
  ) {
    return this.queries.execute(
      new ReadContentQuery(spaceId, actor.userId, { kind: 'page', pageId, format: params.format }),
    );
  }

  @Get('spaces/:spaceId/links')
  @ApiOperation({
    operationId: 'listSpaceLinks',
    summary: 'The links of the current revision, by target, with their status (ok, broken, in-app) and counts',
  })
  links(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() params: LinkListParams) {
    const { status, ...list } = params;
    return this.queries.execute(new ReadContentQuery(spaceId, actor.userId, { kind: 'links', status, params: list }));
  }

  @Get('spaces/:spaceId/content/files')
  @ApiOperation({ operationId: 'listFiles', summary: 'The files of the current revision' })
  files(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() params: FileListParams) {
    return this.queries.execute(new ReadContentQuery(spaceId, actor.userId, { kind: 'files', params }));
  }

  @Get('spaces/:spaceId/content/files/:fileId')
  @ApiOperation({ operationId: 'getFileById', summary: 'A file of the current revision' })
  file(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('fileId') fileId: string,
    @Query() _params: ContentParams,
  ) {
    return this.queries.execute(new ReadContentQuery(spaceId, actor.userId, { kind: 'file', fileId }));
  }

  @Get('spaces/:spaceId/revisions/:revisionId')
  @ApiOperation({ operationId: 'getRevisionById', summary: 'A revision of the space' })
  revision(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Query() _params: ContentParams,
  ) {
    return this.queries.execute(new ReadContentQuery(spaceId, actor.userId, { kind: 'revision', revisionId }));
  }
}
