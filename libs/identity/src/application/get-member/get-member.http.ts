import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { GetMemberQuery } from './get-member.query';

@ApiTags('organizations')
@Controller()
export class GetMemberController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/members/:userId')
  @ApiOperation({ operationId: 'getMemberInOrganizationById', summary: 'One member of an organization' })
  get(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Param('userId') userId: string) {
    return this.queries.execute(new GetMemberQuery(organizationId, actor.userId, userId));
  }
}
