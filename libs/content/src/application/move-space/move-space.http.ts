import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetSpaceQuery } from '../get-space/get-space.query';
import { MoveRequest } from '../move-request';
import { CONTENT_READ_MODELS } from '../read-models';
import { MoveSpaceCommand } from './move-space.command';

@ApiTags('spaces')
@Controller()
export class MoveSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSpace', summary: 'Move a space to another collection and/or position' })
  async move(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: MoveRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new MoveSpaceCommand(spaceId, actor.userId, body.parent, body.position, actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetSpaceQuery(spaceId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
