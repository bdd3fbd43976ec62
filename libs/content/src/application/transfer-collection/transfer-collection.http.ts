import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetCollectionQuery } from '../get-collection/get-collection.query';
import { TransferRequest } from '../move-request';
import { CONTENT_READ_MODELS } from '../read-models';
import { TransferCollectionCommand } from './transfer-collection.command';

@ApiTags('collections')
@Controller()
export class TransferCollectionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('collections/:collectionId/transfer')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'transferCollection',
    summary: 'Transfer a collection with its contents to another organization',
  })
  async transfer(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Body() body: TransferRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new TransferCollectionCommand(collectionId, actor.userId, body.organization, actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetCollectionQuery(collectionId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
