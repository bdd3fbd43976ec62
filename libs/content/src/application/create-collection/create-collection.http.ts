import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls, Runtime, etagOf } from '@app/kernel';
import { GetCollectionQuery } from '../get-collection/get-collection.query';
import { CONTENT_READ_MODELS } from '../read-models';
import { CreateCollectionCommand } from './create-collection.command';
import { CreateCollectionRequest } from './create-collection.request';

@ApiTags('collections')
@Controller()
export class CreateCollectionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('orgs/:organizationId/collections')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createCollection', summary: 'Create a collection (create role at the parent)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateCollectionRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(
      new CreateCollectionCommand(
        organizationId,
        actor.userId,
        body.title ?? 'Untitled',
        body.parent ?? null,
        actor.requestId,
      ),
    );
    await this.runtime.settle(created.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetCollectionQuery(created.collectionId, actor.userId));
    void reply.header('location', view.body.urls.location).header('etag', etagOf(view.version));
    return view.body;
  }
}
