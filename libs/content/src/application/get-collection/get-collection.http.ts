import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PointInTimeParams, etagOf, pointInTime } from '@app/kernel';
import { GetCollectionQuery } from './get-collection.query';

@ApiTags('collections')
@Controller()
export class GetCollectionController {
  constructor(private readonly queries: QueryBus) {}

  @Get('collections/:collectionId')
  @ApiOperation({ operationId: 'getCollectionById', summary: 'Get a collection' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Query() params: PointInTimeParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const at = pointInTime(params.at);
    const view = await this.queries.execute(new GetCollectionQuery(collectionId, actor.userId, at));
    if (!at) void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
