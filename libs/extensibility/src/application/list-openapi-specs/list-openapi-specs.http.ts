import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListOpenAPISpecsQuery } from './list-openapi-specs.query';

@ApiTags('openapi')
@Controller()
export class ListOpenAPISpecsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/openapi')
  @ApiOperation({ operationId: 'listOpenAPISpecs', summary: "List an organization's OpenAPI specs (member)" })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() params: ListQuery) {
    return this.queries.execute(new ListOpenAPISpecsQuery(organizationId, actor.userId, params));
  }
}
