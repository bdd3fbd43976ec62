import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { CONTENT_READ_MODELS } from '../read-models';
import { DeleteCollectionCommand } from './delete-collection.command';

@ApiTags('collections')
@Controller()
export class DeleteCollectionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('collections/:collectionId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCollectionById',
    summary: 'Delete a collection with what it contains (its spaces can be restored for 7 days; admin role)',
  })
  async delete(@CurrentActor() actor: Actor, @Param('collectionId') collectionId: string): Promise<void> {
    const result = await this.commands.execute(
      new DeleteCollectionCommand(collectionId, actor.userId, actor.requestId),
    );
    await this.runtime.settle(result.position, CONTENT_READ_MODELS);
  }
}
