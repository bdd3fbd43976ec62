import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { GetMemberQuery } from '../get-member/get-member.query';
import { ORGANIZATION_READ_MODELS } from '../read-models';
import { UpdateMemberCommand } from './update-member.command';
import { UpdateMemberRequest } from './update-member.request';

@ApiTags('organizations')
@Controller()
export class UpdateMemberController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('orgs/:organizationId/members/:userId')
  @ApiOperation({ operationId: 'updateMemberInOrganizationById', summary: "Change a member's role (admins)" })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberRequest,
  ) {
    const result = await this.commands.execute(
      new UpdateMemberCommand(organizationId, actor.userId, userId, body.role, actor.requestId),
    );
    await this.runtime.settle(result.position, ORGANIZATION_READ_MODELS);
    return this.queries.execute(new GetMemberQuery(organizationId, actor.userId, userId));
  }
}
