import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { REVISION_READ_MODELS } from '@app/content';
import { REVIEW_READ_MODELS } from '../read-models';
import { UpdateFromSpaceCommand } from './update-from-space.command';

@ApiTags('change-requests')
@Controller()
export class UpdateFromSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/change-requests/:changeRequestId/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateChangeRequest',
    summary: "Bring the space's current content into a change request (edit role)",
  })
  async update(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
  ) {
    const answer = await this.commands.execute(
      new UpdateFromSpaceCommand(spaceId, changeRequestId, actor.userId, actor.requestId),
    );
    await this.runtime.settle(answer.position, [...REVIEW_READ_MODELS, ...REVISION_READ_MODELS]);
    return { revision: answer.revision, result: answer.result, conflicts: answer.conflicts };
  }
}
