import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { GetSpaceCustomFieldsQuery } from './get-space-custom-fields.query';

@ApiTags('custom-fields')
@Controller()
export class GetSpaceCustomFieldsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/custom-fields')
  @ApiOperation({
    operationId: 'getSpaceCustomFields',
    summary: "Every custom field of the space's organization with the space's value, if any (read role)",
  })
  get(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string) {
    // the handler answers the JSON text (JsonText), joined from the fields' cached JSON
    return this.queries.execute(new GetSpaceCustomFieldsQuery(spaceId, actor.userId));
  }
}
