import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PointInTimeParams, READS_KEY_STORE, keepResponse, pointInTime } from '@app/kernel';
import { GetChangeRequestQuery } from './get-change-request.query';

@ApiTags('change-requests')
@Controller()
export class GetChangeRequestController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/change-requests/:changeRequestId')
  @ApiOperation({
    operationId: 'getChangeRequestById',
    summary: 'A change request, by id or by its number in the space',
  })
  // its people (author, merger) are opened with keys from the key store: a kept answer depends on it too
  @RouteConfig(READS_KEY_STORE)
  get(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: PointInTimeParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const at = pointInTime(params.at);
    // made from the read store and the key store alone (a point in time reads the event store)
    if (!at) keepResponse(reply);
    return this.queries.execute(new GetChangeRequestQuery(spaceId, changeRequestId, actor.userId, at));
  }
}
