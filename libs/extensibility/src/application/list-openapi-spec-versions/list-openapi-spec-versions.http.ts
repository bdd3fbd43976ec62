import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListOpenAPISpecVersionsQuery } from './list-openapi-spec-versions.query';

@ApiTags('openapi')
@Controller()
export class ListOpenAPISpecVersionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/openapi/:specSlug/versions')
  @ApiOperation({ operationId: 'listOpenAPISpecVersions', summary: 'List the processed versions of a spec (member)' })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Query() params: ListQuery,
  ) {
    return this.queries.execute(new ListOpenAPISpecVersionsQuery(organizationId, slug, actor.userId, params));
  }
}
