import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListWebhooksQuery } from './list-webhooks.query';

@ApiTags('webhooks')
@Controller()
export class ListWebhooksController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/webhooks')
  @ApiOperation({ operationId: 'listWebhooks', summary: "List an organization's webhooks (admin)" })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() params: ListQuery) {
    return this.queries.execute(new ListWebhooksQuery(organizationId, actor.userId, params));
  }
}
