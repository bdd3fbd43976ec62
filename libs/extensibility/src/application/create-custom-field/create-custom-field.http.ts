import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, newId } from '@app/kernel';
import { ChangeCustomFieldsCommand } from '../change-custom-fields/change-custom-fields.command';
import { GetCustomFieldQuery } from '../get-custom-field/get-custom-field.query';
import { CUSTOM_FIELD_READ_MODELS } from '../read-models';
import { CreateCustomFieldRequest } from './create-custom-field.request';

@ApiTags('custom-fields')
@Controller()
export class CreateCustomFieldController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/custom-fields')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrganizationCustomField', summary: 'Create a custom field (admin)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateCustomFieldRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new ChangeCustomFieldsCommand(
        actor.userId,
        {
          type: 'CreateCustomField',
          data: {
            organizationId,
            fieldId: newId(),
            name: body.name,
            type: body.type,
            title: body.title,
            description: body.description,
            placeholder: body.placeholder,
            options: body.options,
          },
        },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, CUSTOM_FIELD_READ_MODELS);
    const field = await this.queries.execute(new GetCustomFieldQuery(organizationId, body.name, actor.userId));
    void reply.header('location', field.urls.location);
    return field;
  }
}
