import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListDeliveriesQuery } from './list-deliveries.query';

@ApiTags('webhooks')
@Controller()
export class ListDeliveriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/webhooks/:webhookId/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's delivery attempts, newest first (admin)",
  })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Query() params: ListQuery,
  ) {
    return this.queries.execute(new ListDeliveriesQuery(organizationId, webhookId, actor.userId, params));
  }
}
