import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { SearchOrganizationQuery, SearchParams, SearchSpaceQuery } from './search-content.query';

@ApiTags('search')
@Controller()
export class SearchContentController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/search')
  @ApiOperation({
    operationId: 'searchOrganizationContent',
    summary: 'Search the live content of the spaces the caller can read in an organization, grouped by space',
  })
  searchOrganization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: SearchParams,
  ) {
    // the handler answers the envelope's JSON text (JsonText), kept with the index's answer
    return this.queries.execute(new SearchOrganizationQuery(organizationId, actor.userId, params));
  }

  @Get('spaces/:spaceId/search')
  @ApiOperation({ operationId: 'searchSpaceContent', summary: 'Search the pages of a space' })
  searchSpace(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() params: SearchParams) {
    return this.queries.execute(new SearchSpaceQuery(spaceId, actor.userId, params));
  }
}
