import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { ChangeIntegrationCommand } from '../change-integration/change-integration.command';
import { INTEGRATION_READ_MODELS } from '../integration-read-models';

@ApiTags('integrations')
@Controller()
export class UninstallIntegrationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('integrations/:integrationName/installations/:installationId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'uninstallIntegration',
    summary: 'Remove an installation (admin of the organization it is installed in)',
  })
  async uninstall(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
  ): Promise<void> {
    const result = await this.commands.execute(
      new ChangeIntegrationCommand(
        actor.userId,
        { type: 'UninstallIntegration', data: { name, installationId } },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, INTEGRATION_READ_MODELS);
  }
}
