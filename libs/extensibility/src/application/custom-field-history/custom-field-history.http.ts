import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { CustomFieldHistoryQuery } from './custom-field-history.query';

@ApiTags('custom-fields')
@Controller()
export class CustomFieldHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/custom-fields/:fieldName/history')
  @ApiOperation({
    operationId: 'listCustomFieldHistory',
    summary: "The custom field's public events, newest first, with the fields each changed (member)",
  })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fieldName') fieldName: string,
    @Query() params: ListQuery,
  ) {
    return this.queries.execute(new CustomFieldHistoryQuery(organizationId, fieldName, actor.userId, params));
  }
}
