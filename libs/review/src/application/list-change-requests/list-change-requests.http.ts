import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListChangeRequestsParams, ListChangeRequestsQuery } from './list-change-requests.query';

@ApiTags('change-requests')
@Controller()
export class ListChangeRequestsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/change-requests')
  @ApiOperation({ operationId: 'listChangeRequestsForSpace', summary: 'The change requests of a space' })
  list(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() params: ListChangeRequestsParams) {
    return this.queries.execute(new ListChangeRequestsQuery(spaceId, actor.userId, params));
  }
}
