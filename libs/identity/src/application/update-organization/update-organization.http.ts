import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { GetOrganizationQuery } from '../get-organization/get-organization.query';
import { ORGANIZATION_READ_MODELS } from '../read-models';
import { UpdateOrganizationCommand } from './update-organization.command';
import { UpdateOrganizationRequest } from './update-organization.request';

@ApiTags('organizations')
@Controller()
export class UpdateOrganizationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Patch('orgs/:organizationId')
  @ApiOperation({ operationId: 'updateOrganizationById', summary: "Update an organization's settings (admins)" })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: UpdateOrganizationRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new UpdateOrganizationCommand(organizationId, actor.userId, body, parseIfMatch(ifMatch), actor.requestId),
    );
    await this.runtime.settle(result.position, ORGANIZATION_READ_MODELS);
    const view = await this.queries.execute(new GetOrganizationQuery(organizationId, actor.userId));
    void reply.header('etag', etagOf(view.revision));
    return view.body;
  }
}
