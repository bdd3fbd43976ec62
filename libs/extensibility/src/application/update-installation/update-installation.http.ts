import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { ChangeIntegrationCommand } from '../change-integration/change-integration.command';
import { GetInstallationQuery, type InstallationView } from '../get-installation/get-installation.query';
import { INTEGRATION_READ_MODELS } from '../integration-read-models';
import { UpdateInstallationRequest } from './update-installation.request';

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
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
    @Body() body: UpdateInstallationRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new ChangeIntegrationCommand(
        actor.userId,
        { type: 'UpdateInstallation', data: { name, installationId, ...body } },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, INTEGRATION_READ_MODELS);
    const view: InstallationView = await this.queries.execute(
      new GetInstallationQuery(name, installationId, actor.userId),
    );
    void reply.header('etag', etagOf(view.revision));
    return view.body;
  }
}
