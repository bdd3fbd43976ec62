import { Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetSpaceQuery } from '../get-space/get-space.query';
import { REVISION_READ_MODELS } from '../read-models';
import { DuplicateSpaceCommand } from './duplicate-space.command';

@ApiTags('spaces')
@Controller()
export class DuplicateSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/duplicate')
  @HttpCode(201)
  @ApiOperation({ operationId: 'duplicateSpace', summary: 'Create a copy of a space next to it' })
  async duplicate(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(new DuplicateSpaceCommand(spaceId, actor.userId, actor.requestId));
    await this.runtime.settle(created.position, REVISION_READ_MODELS);
    const view = await this.queries.execute(new GetSpaceQuery(created.spaceId, actor.userId));
    void reply.header('location', view.body.urls.location).header('etag', etagOf(view.version));
    return view.body;
  }
}
