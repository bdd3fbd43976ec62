import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import {
  type Actor,
  CurrentActor,
  PointInTimeParams,
  etagOf,
  keepResponse,
  pointInTime,
  KEEPS_ANSWERS,
} from '@app/kernel';
import { GetOrganizationQuery } from './get-organization.query';

@ApiTags('organizations')
@Controller()
export class GetOrganizationController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'getOrganizationById', summary: 'Get an organization the caller belongs to' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: PointInTimeParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const at = pointInTime(params.at);
    const { body, revision } = await this.queries.execute(new GetOrganizationQuery(organizationId, actor.userId, at));
    if (!at) {
      void reply.header('etag', etagOf(revision));
      // made from the read store alone (a point in time reads the event store)
      keepResponse(reply);
    }
    return body;
  }
}
