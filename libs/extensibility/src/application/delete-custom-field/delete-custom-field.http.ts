import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { ChangeCustomFieldsCommand } from '../change-custom-fields/change-custom-fields.command';
import { CUSTOM_FIELD_READ_MODELS } from '../read-models';

@ApiTags('custom-fields')
@Controller()
export class DeleteCustomFieldController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('orgs/:organizationId/custom-fields/:fieldName')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteOrganizationCustomField',
    summary: 'Delete a custom field and its value in every space (admin); a field already gone is 204 too',
  })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fieldName') fieldName: string,
  ): Promise<void> {
    const result = await this.commands.execute(
      new ChangeCustomFieldsCommand(
        actor.userId,
        { type: 'DeleteCustomField', data: { organizationId, name: fieldName } },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, CUSTOM_FIELD_READ_MODELS);
  }
}
