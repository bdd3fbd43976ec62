import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { GetInstallationQuery, type InstallationView } from './get-installation.query';

@ApiTags('integrations')
@Controller()
export class GetInstallationController {
  constructor(private readonly queries: QueryBus) {}

  @Get('integrations/:integrationName/installations/:installationId')
  @ApiOperation({
    operationId: 'getIntegrationInstallationById',
    summary: 'Read an installation (admin of the organization it is installed in)',
  })
  async get(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
  ) {
    const view: InstallationView = await this.queries.execute(
      new GetInstallationQuery(name, installationId, actor.userId),
    );
    return view.body;
  }
}
