import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { type SpaceChanges } from '../../domain';
import { GetSpaceQuery } from '../get-space/get-space.query';
import { CONTENT_READ_MODELS } from '../read-models';
import { UpdateSpaceCommand } from './update-space.command';
import { UpdateSpaceRequest } from './update-space.request';

@ApiTags('spaces')
@Controller()
export class UpdateSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('spaces/:spaceId')
  @ApiOperation({ operationId: 'updateSpaceById', summary: 'Change a space' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: UpdateSpaceRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const changes: SpaceChanges = {
      title: body.title,
      emoji: body.emoji === null ? '' : body.emoji,
      editMode: body.editMode,
      defaultLevel: body.defaultLevel,
    };
    const result = await this.commands.execute(
      new UpdateSpaceCommand(spaceId, actor.userId, changes, parseIfMatch(ifMatch), actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
    const view = await this.queries.execute(new GetSpaceQuery(spaceId, actor.userId));
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
