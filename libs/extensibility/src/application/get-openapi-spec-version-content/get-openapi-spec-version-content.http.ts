import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { LATEST } from '../get-openapi-spec-version/get-openapi-spec-version.query';
import { GetOpenAPISpecVersionContentQuery } from './get-openapi-spec-version-content.query';

@ApiTags('openapi')
@Controller()
export class GetOpenAPISpecVersionContentController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/openapi/:specSlug/versions/latest/content')
  @ApiOperation({
    operationId: 'getLatestOpenAPISpecVersionContent',
    summary: 'The document of the last processed version (member)',
  })
  latest(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
  ) {
    return this.queries.execute(new GetOpenAPISpecVersionContentQuery(organizationId, slug, LATEST, actor.userId));
  }

  @Get('orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw')
  @ApiOperation({
    operationId: 'getLatestOpenAPISpecVersionContentRaw',
    summary: 'The text of the last processed version, exactly as fetched or given (member)',
  })
  latestRaw(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
  ) {
    return this.queries.execute(
      new GetOpenAPISpecVersionContentQuery(organizationId, slug, LATEST, actor.userId, true),
    );
  }

  @Get('orgs/:organizationId/openapi/:specSlug/versions/:versionId/content')
  @ApiOperation({ operationId: 'getOpenAPISpecVersionContentById', summary: 'The document of one version (member)' })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Param('versionId') versionId: string,
  ) {
    return this.queries.execute(new GetOpenAPISpecVersionContentQuery(organizationId, slug, versionId, actor.userId));
  }
}
