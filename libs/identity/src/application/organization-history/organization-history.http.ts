import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { OrganizationHistoryQuery } from './organization-history.query';

@ApiTags('organizations')
@Controller()
export class OrganizationHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/history')
  @ApiOperation({
    operationId: 'listOrganizationHistory',
    summary: "The organization's public events, newest first, with the fields each changed (members)",
  })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() params: ListQuery) {
    return this.queries.execute(new OrganizationHistoryQuery(organizationId, actor.userId, params));
  }
}
