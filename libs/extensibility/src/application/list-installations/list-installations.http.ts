import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListInstallationsParams, ListInstallationsQuery } from './list-installations.query';

@ApiTags('integrations')
@Controller()
export class ListInstallationsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('integrations/:integrationName/installations')
  @ApiOperation({
    operationId: 'listIntegrationInstallations',
    summary: "List an integration's installations (owner's admins: all; others: their organizations' own)",
  })
  list(@CurrentActor() actor: Actor, @Param('integrationName') name: string, @Query() params: ListInstallationsParams) {
    return this.queries.execute(new ListInstallationsQuery(name, actor.userId, params));
  }
}
