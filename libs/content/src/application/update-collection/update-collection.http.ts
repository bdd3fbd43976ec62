import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { GetCollectionQuery } from '../get-collection/get-collection.query';
import { CONTENT_READ_MODELS } from '../read-models';
import { UpdateCollectionCommand } from './update-collection.command';
import { UpdateCollectionRequest } from './update-collection.request';

@ApiTags('collections')
@Controller()
export class UpdateCollectionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('collections/:collectionId')
  @ApiOperation({ operationId: 'updateCollectionById', summary: 'Change a collection (admin role)' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Body() body: UpdateCollectionRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new UpdateCollectionCommand(collectionId, actor.userId, { ...body }, parseIfMatch(ifMatch), actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetCollectionQuery(collectionId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
