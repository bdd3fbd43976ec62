import { Body, Controller, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type Actor,
  CurrentActor,
  PUBLIC_URLS,
  type PublicUrls,
  Runtime,
  URL_SIGNER,
  type UrlSigner,
} from '@app/kernel';
import { REVISION_READ_MODELS, blobDownloadUrl } from '@app/content';
import { GetChangeRequestQuery } from '../get-change-request/get-change-request.query';
import { REVIEW_READ_MODELS } from '../read-models';
import { EditContentCommand } from './edit-content.command';
import { EditContentParams, EditContentRequest } from './edit-content.request';

@ApiTags('change-requests')
@Controller()
export class EditContentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Inject(URL_SIGNER) private readonly signer: UrlSigner,
  ) {}

  @Post('spaces/:spaceId/change-requests/:changeRequestId/content')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateChangeRequestContent',
    summary: 'Write pages and files into a change request, all or nothing, as one new revision (edit role)',
  })
  async edit(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: EditContentParams,
    @Body() body: EditContentRequest,
  ) {
    const result = await this.commands.execute(
      new EditContentCommand(spaceId, changeRequestId, actor.userId, body.changes, actor.requestId),
    );
    await this.runtime.settle(result.position, [...REVIEW_READ_MODELS, ...REVISION_READ_MODELS]);
    const changeRequest = await this.queries.execute(
      new GetChangeRequestQuery(spaceId, result.changeRequestId, actor.userId),
    );
    if (params.compat !== false) return changeRequest;
    const pageUrl = (id: string) => `${changeRequest.urls.location}/content/page/${id}`;
    return {
      changeRequest,
      changes: result.outcomes.map((outcome) =>
        outcome.object === 'deleted_page'
          ? outcome
          : {
              object: outcome.object,
              ...('ref' in outcome && outcome.ref ? { ref: outcome.ref } : {}),
              page: { object: 'page', id: outcome.page, urls: { location: pageUrl(outcome.page) } },
            },
      ),
      insertedFiles: result.insertedFiles.map((file) => ({
        id: file.id,
        name: file.name,
        contentType: file.contentType,
        size: file.size,
        downloadURL: file.blobKey ? blobDownloadUrl(file.blobKey, this.urls, this.signer) : file.downloadURL,
      })),
    };
  }
}
