import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetCollectionQuery } from '../get-collection/get-collection.query';
import { MoveRequest } from '../move-request';
import { CONTENT_READ_MODELS } from '../read-models';
import { MoveCollectionCommand } from './move-collection.command';

@ApiTags('collections')
@Controller()
export class MoveCollectionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('collections/:collectionId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveCollection', summary: 'Move a collection to another parent and/or position' })
  async move(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Body() body: MoveRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new MoveCollectionCommand(collectionId, actor.userId, body.parent, body.position, actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetCollectionQuery(collectionId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
