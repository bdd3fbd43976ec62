import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, keepResponse, KEEPS_ANSWERS } from '@app/kernel';
import { GetSpaceCustomFieldsQuery } from './get-space-custom-fields.query';

@ApiTags('custom-fields')
@Controller()
export class GetSpaceCustomFieldsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/custom-fields')
  @RouteConfig(KEEPS_ANSWERS)
  @ApiOperation({
    operationId: 'getSpaceCustomFields',
    summary: "Every custom field of the space's organization with the space's value, if any (read role)",
  })
  get(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // the handler answers the JSON text (JsonText), joined from the fields' cached JSON; made from the read store
    // alone, it may be answered again (see KeptResponses)
    keepResponse(reply);
    return this.queries.execute(new GetSpaceCustomFieldsQuery(spaceId, actor.userId));
  }
}
