import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { GetChangeRequestQuery } from '../get-change-request/get-change-request.query';
import { REVIEW_READ_MODELS } from '../read-models';
import { UpdateChangeRequestCommand } from './update-change-request.command';
import { UpdateChangeRequestRequest } from './update-change-request.request';

@ApiTags('change-requests')
@Controller()
export class UpdateChangeRequestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('spaces/:spaceId/change-requests/:changeRequestId')
  @ApiOperation({ operationId: 'updateChangeRequestById', summary: 'Change the subject or status of a change request' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: UpdateChangeRequestRequest,
  ) {
    const result = await this.commands.execute(
      new UpdateChangeRequestCommand(
        spaceId,
        changeRequestId,
        actor.userId,
        { subject: body.subject, status: body.status },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, REVIEW_READ_MODELS);
    return this.queries.execute(new GetChangeRequestQuery(spaceId, result.changeRequestId, actor.userId));
  }
}
