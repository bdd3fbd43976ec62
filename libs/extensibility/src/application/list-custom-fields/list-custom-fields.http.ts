import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListCustomFieldsQuery } from './list-custom-fields.query';

@ApiTags('custom-fields')
@Controller()
export class ListCustomFieldsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/custom-fields')
  @ApiOperation({
    operationId: 'listOrganizationCustomFields',
    summary: "List an organization's custom fields (member)",
  })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() params: ListQuery) {
    return this.queries.execute(new ListCustomFieldsQuery(organizationId, actor.userId, params));
  }
}
