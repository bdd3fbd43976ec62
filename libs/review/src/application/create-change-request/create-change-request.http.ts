import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { GetChangeRequestQuery } from '../get-change-request/get-change-request.query';
import { REVIEW_READ_MODELS } from '../read-models';
import { CreateChangeRequestCommand } from './create-change-request.command';
import { CreateChangeRequestRequest } from './create-change-request.request';

@ApiTags('change-requests')
@Controller()
export class CreateChangeRequestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/change-requests')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createChangeRequest', summary: 'Propose changes to a space (edit role)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: CreateChangeRequestRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(
      new CreateChangeRequestCommand(spaceId, actor.userId, body.subject ?? '', actor.requestId),
    );
    await this.runtime.settle(created.position, REVIEW_READ_MODELS);
    const view = await this.queries.execute(new GetChangeRequestQuery(spaceId, created.changeRequestId, actor.userId));
    void reply.header('location', view.urls.location);
    return view;
  }
}
