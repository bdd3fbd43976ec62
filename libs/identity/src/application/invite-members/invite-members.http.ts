import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { ORGANIZATION_READ_MODELS } from '../read-models';
import { InviteMembersCommand } from './invite-members.command';
import { InviteMembersRequest } from './invite-members.request';

@ApiTags('organizations')
@Controller()
export class InviteMembersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/invites')
  @HttpCode(200)
  @ApiOperation({ operationId: 'inviteUsersToOrganization', summary: 'Invite people by email (admins)' })
  async invite(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: InviteMembersRequest,
  ) {
    const result = await this.commands.execute(
      new InviteMembersCommand(
        organizationId,
        actor.userId,
        body.emails,
        body.role === undefined ? 'read' : body.role,
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, ORGANIZATION_READ_MODELS);
    return { users: result.users, invited: result.invited };
  }
}
