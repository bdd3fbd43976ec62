import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListSpacesQuery } from './list-spaces.query';

@ApiTags('spaces')
@Controller()
export class ListSpacesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/spaces')
  @ApiOperation({ operationId: 'listSpacesInOrganizationById', summary: 'List the spaces the caller can see' })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() params: ListQuery) {
    // the handler answers the envelope's JSON text (JsonText), joined from the spaces' kept JSON
    return this.queries.execute(new ListSpacesQuery(organizationId, actor.userId, params));
  }
}
