import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls, Runtime } from '@app/kernel';
import { REVISION_READ_MODELS } from '@app/content';
import { GetChangeRequestQuery } from '../get-change-request/get-change-request.query';
import { REVIEW_READ_MODELS } from '../read-models';
import { ImportContentCommand } from './import-content.command';
import { ImportContentRequest } from './import-content.request';

@ApiTags('change-requests')
@Controller()
export class ImportContentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('spaces/:spaceId/change-requests/:changeRequestId/content/import')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'importContentInChangeRequest',
    summary: 'Import a markdown or HTML document from an address as a new page of a change request (edit role)',
  })
  async import(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: ImportContentRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new ImportContentCommand(spaceId, changeRequestId, actor.userId, body, actor.requestId),
    );
    await this.runtime.settle(result.position, [...REVIEW_READ_MODELS, ...REVISION_READ_MODELS]);
    const changeRequest = await this.queries.execute(
      new GetChangeRequestQuery(spaceId, result.changeRequestId, actor.userId),
    );
    void reply.header('location', `${this.urls.api}/spaces/${spaceId}/revisions/${changeRequest.revision}`);
    return { revision: changeRequest.revision, importedResources: 1, totalResources: 1 };
  }
}
