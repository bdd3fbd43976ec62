import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { ChangeCustomFieldsCommand } from '../change-custom-fields/change-custom-fields.command';
import { GetCustomFieldQuery } from '../get-custom-field/get-custom-field.query';
import { CUSTOM_FIELD_READ_MODELS } from '../read-models';
import { UpdateCustomFieldRequest } from './update-custom-field.request';

@ApiTags('custom-fields')
@Controller()
export class UpdateCustomFieldController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('orgs/:organizationId/custom-fields/:fieldName')
  @ApiOperation({ operationId: 'updateOrganizationCustomField', summary: 'Change a custom field (admin)' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fieldName') fieldName: string,
    @Body() body: UpdateCustomFieldRequest,
  ) {
    const { title, description, placeholder, options } = body;
    const result = await this.commands.execute(
      new ChangeCustomFieldsCommand(
        actor.userId,
        {
          type: 'UpdateCustomField',
          data: { organizationId, name: fieldName, changes: { title, description, placeholder, options } },
        },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, CUSTOM_FIELD_READ_MODELS);
    return this.queries.execute(new GetCustomFieldQuery(organizationId, fieldName, actor.userId));
  }
}
