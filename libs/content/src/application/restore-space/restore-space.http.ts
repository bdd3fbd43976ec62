import { Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetSpaceQuery } from '../get-space/get-space.query';
import { CONTENT_READ_MODELS } from '../read-models';
import { RestoreSpaceCommand } from './restore-space.command';

@ApiTags('spaces')
@Controller()
export class RestoreSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  @ApiOperation({ operationId: 'restoreSpace', summary: 'Restore a space deleted in the last 7 days (admin role)' })
  async restore(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(new RestoreSpaceCommand(spaceId, actor.userId, actor.requestId));
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetSpaceQuery(spaceId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
