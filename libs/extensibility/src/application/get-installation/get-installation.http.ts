import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, etagOf } from '@app/kernel';
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
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const view: InstallationView = await this.queries.execute(
      new GetInstallationQuery(name, installationId, actor.userId),
    );
    void reply.header('etag', etagOf(view.revision));
    return view.body;
  }
}
