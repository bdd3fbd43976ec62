import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, newId } from '@app/kernel';
import { ChangeIntegrationCommand } from '../change-integration/change-integration.command';
import { GetInstallationQuery, type InstallationView } from '../get-installation/get-installation.query';
import { IntegrationAccess } from '../integration-access';
import { INTEGRATION_READ_MODELS } from '../integration-read-models';
import { InstallIntegrationRequest } from './install-integration.request';

@ApiTags('integrations')
@Controller()
export class InstallIntegrationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
    private readonly integrations: IntegrationAccess,
  ) {}

  @Post('integrations/:integrationName/installations')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'installIntegration',
    summary: 'Install an integration in an organization (admin of that organization); once per organization',
  })
  async install(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Body() body: InstallIntegrationRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const organizationId = await this.integrations.organizationId(body.organization, actor.userId);
    const installationId = newId();
    const result = await this.commands.execute(
      new ChangeIntegrationCommand(
        actor.userId,
        { type: 'InstallIntegration', data: { name, installationId }, organizationId },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, INTEGRATION_READ_MODELS);
    const view: InstallationView = await this.queries.execute(
      new GetInstallationQuery(name, installationId, actor.userId),
    );
    void reply.header('location', view.body.urls.location);
    return view.body;
  }
}
