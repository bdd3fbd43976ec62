import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { GetOpenAPISpecVersionQuery, LATEST } from './get-openapi-spec-version.query';

@ApiTags('openapi')
@Controller()
export class GetOpenAPISpecVersionController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/openapi/:specSlug/versions/latest')
  @ApiOperation({
    operationId: 'getLatestOpenAPISpecVersion',
    summary: 'The last processed version of a spec (member)',
  })
  latest(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
  ) {
    return this.queries.execute(new GetOpenAPISpecVersionQuery(organizationId, slug, LATEST, actor.userId));
  }

  @Get('orgs/:organizationId/openapi/:specSlug/versions/:versionId')
  @ApiOperation({ operationId: 'getOpenAPISpecVersionById', summary: 'One processed version of a spec (member)' })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Param('versionId') versionId: string,
  ) {
    return this.queries.execute(new GetOpenAPISpecVersionQuery(organizationId, slug, versionId, actor.userId));
  }
}
