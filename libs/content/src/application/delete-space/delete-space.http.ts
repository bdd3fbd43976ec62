import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { CONTENT_READ_MODELS } from '../read-models';
import { DeleteSpaceCommand } from './delete-space.command';

@ApiTags('spaces')
@Controller()
export class DeleteSpaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('spaces/:spaceId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSpaceById',
    summary: 'Delete a space; it can be restored for 7 days, then it is removed for good (admin role)',
  })
  async delete(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string): Promise<void> {
    const result = await this.commands.execute(new DeleteSpaceCommand(spaceId, actor.userId, actor.requestId));
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
  }
}
