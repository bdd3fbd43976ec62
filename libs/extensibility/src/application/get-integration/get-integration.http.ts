import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, etagOf } from '@app/kernel';
import { GetIntegrationQuery, type IntegrationView } from './get-integration.query';

@ApiTags('integrations')
@Controller()
export class GetIntegrationController {
  constructor(private readonly queries: QueryBus) {}

  @Get('integrations/:integrationName')
  @ApiOperation({
    operationId: 'getIntegrationByName',
    summary: "Read an integration (public and unlisted: anyone; private: the owner's members)",
  })
  async get(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const view: IntegrationView = await this.queries.execute(new GetIntegrationQuery(name, actor.userId));
    void reply.header('etag', etagOf(view.revision));
    return view.body;
  }
}
