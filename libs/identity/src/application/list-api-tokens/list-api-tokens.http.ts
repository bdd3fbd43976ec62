import { Controller, Get, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListApiTokensQuery } from './list-api-tokens.query';

@ApiTags('users')
@Controller()
export class ListApiTokensController {
  constructor(private readonly queries: QueryBus) {}

  @Get('user/tokens')
  @ApiOperation({ summary: "List the caller's API tokens (never the secrets)" })
  list(@CurrentActor() actor: Actor, @QueryParams() query: ListQuery) {
    return this.queries.execute(new ListApiTokensQuery(actor.userId, query));
  }
}
