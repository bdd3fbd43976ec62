import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, PointInTimeParams, pointInTime } from '@app/kernel';
import { GetCustomFieldQuery } from './get-custom-field.query';

@ApiTags('custom-fields')
@Controller()
export class GetCustomFieldController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/custom-fields/:fieldName')
  @ApiOperation({ operationId: 'getOrganizationCustomFieldByName', summary: 'Read a custom field (member)' })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fieldName') fieldName: string,
    @Query() params: PointInTimeParams,
  ) {
    return this.queries.execute(
      new GetCustomFieldQuery(organizationId, fieldName, actor.userId, pointInTime(params.at)),
    );
  }
}
