import { Controller, Get, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListOrganizationsQuery } from './list-organizations.query';

@ApiTags('organizations')
@Controller()
export class ListOrganizationsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs')
  @ApiOperation({
    operationId: 'listOrganizationsForAuthenticatedUser',
    summary: 'Organizations the caller belongs to',
  })
  list(@CurrentActor() actor: Actor, @QueryParams() query: ListQuery) {
    return this.queries.execute(new ListOrganizationsQuery(actor.userId, query));
  }
}
