import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, JSON_CONTENT_TYPE, ListQuery } from '@app/kernel';
import { ListSpacesQuery } from './list-spaces.query';

@ApiTags('spaces')
@Controller()
export class ListSpacesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/spaces')
  @ApiOperation({ operationId: 'listSpacesInOrganizationById', summary: 'List the spaces the caller can see' })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // the handler answers the envelope's JSON text, joined from the spaces' cached JSON
    const text = await this.queries.execute(new ListSpacesQuery(organizationId, actor.userId, params));
    void reply.type(JSON_CONTENT_TYPE);
    return text;
  }
}
