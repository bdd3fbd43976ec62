import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf } from '@app/kernel';
import { GetSpaceQuery } from '../get-space/get-space.query';
import { REVISION_READ_MODELS } from '../read-models';
import { CreateSpaceCommand } from './create-space.command';
import { CreateSpaceRequest } from './create-space.request';

@ApiTags('spaces')
@Controller()
export class CreateSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/spaces')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSpace', summary: 'Create a space with an empty first revision (create role)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateSpaceRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(
      new CreateSpaceCommand(
        actor.userId,
        {
          organizationId,
          title: body.title ?? 'Untitled',
          emoji: body.emoji,
          parent: body.parent ?? null,
          editMode: body.editMode,
        },
        actor.requestId,
      ),
    );
    await this.runtime.settle(created.position, REVISION_READ_MODELS);
    const view = await this.queries.execute(new GetSpaceQuery(created.spaceId, actor.userId));
    void reply.header('location', view.body.urls.location).header('etag', etagOf(view.version));
    return view.body;
  }
}
