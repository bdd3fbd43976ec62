import { Controller, Get, Param, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListMembersParams, ListMembersQuery } from './list-members.query';

@ApiTags('organizations')
@Controller()
export class ListMembersController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/members')
  @ApiOperation({ operationId: 'listMembersInOrganizationById', summary: 'Members of an organization' })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @QueryParams() query: ListMembersParams,
  ) {
    return this.queries.execute(new ListMembersQuery(organizationId, actor.userId, query));
  }
}
