import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { GetUserQuery } from './get-current-user.query';

@ApiTags('users')
@Controller()
export class GetCurrentUserController {
  constructor(private readonly queries: QueryBus) {}

  @Get('user')
  @ApiOperation({ operationId: 'getAuthenticatedUser', summary: 'The user the API token belongs to' })
  getCurrentUser(@CurrentActor() actor: Actor) {
    return this.queries.execute(new GetUserQuery(actor.userId));
  }
}
