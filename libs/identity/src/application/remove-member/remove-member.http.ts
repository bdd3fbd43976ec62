import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { ORGANIZATION_READ_MODELS } from '../read-models';
import { RemoveMemberCommand } from './remove-member.command';

@ApiTags('organizations')
@Controller()
export class RemoveMemberController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('orgs/:organizationId/members/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeMemberFromOrganizationById', summary: 'Remove a member (admins, or yourself)' })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
  ): Promise<void> {
    const result = await this.commands.execute(
      new RemoveMemberCommand(organizationId, actor.userId, userId, actor.requestId),
    );
    await this.runtime.settle(result.position, ORGANIZATION_READ_MODELS);
  }
}
