import { Body, Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { CUSTOM_FIELD_READ_MODELS } from '../read-models';
import { UpdateSpaceCustomFieldsCommand } from './update-space-custom-fields.command';
import { UpdateSpaceCustomFieldsRequest, readValues } from './update-space-custom-fields.request';

@ApiTags('custom-fields')
@Controller()
export class UpdateSpaceCustomFieldsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('spaces/:spaceId/custom-fields')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateSpaceCustomFields',
    summary: "Set or remove a space's custom-field values, all or nothing (edit role)",
  })
  async update(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: UpdateSpaceCustomFieldsRequest,
  ): Promise<void> {
    const values = readValues(body.values);
    const result = await this.commands.execute(
      new UpdateSpaceCustomFieldsCommand(spaceId, actor.userId, values, actor.requestId),
    );
    await this.runtime.settle(result.position, CUSTOM_FIELD_READ_MODELS);
  }
}
