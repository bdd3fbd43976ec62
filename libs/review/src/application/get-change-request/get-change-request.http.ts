import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, PointInTimeParams, pointInTime } from '@app/kernel';
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
  get(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: PointInTimeParams,
  ) {
    return this.queries.execute(
      new GetChangeRequestQuery(spaceId, changeRequestId, actor.userId, pointInTime(params.at)),
    );
  }
}
