import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, ListQuery, keepResponse, KEEPS_ANSWERS } from '@app/kernel';
import { ListSpacesQuery } from './list-spaces.query';

@ApiTags('spaces')
@Controller()
export class ListSpacesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/spaces')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'listSpacesInOrganizationById', summary: 'List the spaces the caller can see' })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // the handler answers the envelope's JSON text (JsonText), joined from the spaces' kept JSON; made from the
    // read store alone (and the cursor secret), it may be answered again (see KeptResponses)
    keepResponse(reply);
    return this.queries.execute(new ListSpacesQuery(organizationId, actor.userId, params));
  }
}
