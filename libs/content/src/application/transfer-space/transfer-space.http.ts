import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetSpaceQuery } from '../get-space/get-space.query';
import { CONTENT_READ_MODELS } from '../read-models';
import { TransferSpaceCommand } from './transfer-space.command';
import { TransferSpaceRequest } from './transfer-space.request';

@ApiTags('spaces')
@Controller()
export class TransferSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/transfer')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'transferSpace',
    summary: 'Transfer a space to another organization, collection or both',
  })
  async transfer(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: TransferSpaceRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new TransferSpaceCommand(spaceId, actor.userId, body.organization, body.parent ?? null, actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetSpaceQuery(spaceId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
