import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import {
  type Actor,
  CurrentActor,
  OptionalField,
  PointInTimeField,
  etagOf,
  keepResponse,
  pointInTime,
  KEEPS_ANSWERS,
} from '@app/kernel';
import { GetSpaceQuery } from './get-space.query';

export class GetSpaceParams {
  @ApiPropertyOptional({
    description: 'Secret key of a share link of a site showing the space: lets a caller without a role read it',
  })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  shareKey?: string;

  @PointInTimeField()
  at?: string;
}

@ApiTags('spaces')
@Controller()
export class GetSpaceController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({ operationId: 'getSpaceById', summary: 'Get a space' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Query() params: GetSpaceParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const at = pointInTime(params.at);
    const view = await this.queries.execute(new GetSpaceQuery(spaceId, actor.userId, params.shareKey, at));
    // A past version is not something to send back in If-Match: only the current one carries an ETag.
    if (!at) {
      void reply.header('etag', etagOf(view.version));
      // made from the read store alone (a point in time reads the event store)
      keepResponse(reply);
    }
    return view.body;
  }
}
