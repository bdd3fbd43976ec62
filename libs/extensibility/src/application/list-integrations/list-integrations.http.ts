import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ListIntegrationsParams, ListIntegrationsQuery } from './list-integrations.query';

@ApiTags('integrations')
@Controller()
export class ListIntegrationsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('integrations')
  @ApiOperation({
    operationId: 'listIntegrations',
    summary: "List integrations by name (public ones, and the private and unlisted ones of the caller's organizations)",
  })
  list(@CurrentActor() actor: Actor, @Query() params: ListIntegrationsParams) {
    return this.queries.execute(new ListIntegrationsQuery(actor.userId, params));
  }
}
