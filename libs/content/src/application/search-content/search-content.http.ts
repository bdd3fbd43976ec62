import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, JSON_CONTENT_TYPE } from '@app/kernel';
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
  async searchOrganization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: SearchParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // the handler answers the envelope's JSON, kept with the index's answer (sent as it is)
    const body = await this.queries.execute(new SearchOrganizationQuery(organizationId, actor.userId, params));
    void reply.type(JSON_CONTENT_TYPE);
    return body;
  }

  @Get('spaces/:spaceId/search')
  @ApiOperation({ operationId: 'searchSpaceContent', summary: 'Search the pages of a space' })
  async searchSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Query() params: SearchParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const body = await this.queries.execute(new SearchSpaceQuery(spaceId, actor.userId, params));
    void reply.type(JSON_CONTENT_TYPE);
    return body;
  }
}
