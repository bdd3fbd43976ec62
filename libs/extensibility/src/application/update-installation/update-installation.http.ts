import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { ChangeIntegrationCommand } from '../change-integration/change-integration.command';
import { GetInstallationQuery, type InstallationView } from '../get-installation/get-installation.query';
import { INTEGRATION_READ_MODELS } from '../integration-read-models';
import { UpdateInstallationRequest } from './update-installation.request';

/**
 * Installations share their integration's stream, whose revision moves with every other installation: they take
 * no `If-Match` and answer no ETag (a PATCH names only what it changes).
 */
@ApiTags('integrations')
@Controller()
export class UpdateInstallationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('integrations/:integrationName/installations/:installationId')
  @ApiOperation({
    operationId: 'updateIntegrationInstallation',
    summary: 'Change an installation (admin of the organization it is installed in)',
  })
  async update(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
    @Body() body: UpdateInstallationRequest,
  ) {
    const result = await this.commands.execute(
      new ChangeIntegrationCommand(
        actor.userId,
        { type: 'UpdateInstallation', data: { name, installationId, ...body } },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, INTEGRATION_READ_MODELS);
    const view: InstallationView = await this.queries.execute(
      new GetInstallationQuery(name, installationId, actor.userId),
    );
    return view.body;
  }
}
