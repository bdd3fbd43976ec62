import { Body, Controller, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, PUBLIC_URLS, type PublicUrls, Runtime, etagOf } from '@app/kernel';
import { GetOrganizationQuery } from '../get-organization/get-organization.query';
import { ORGANIZATION_READ_MODELS } from '../read-models';
import { CreateOrganizationCommand } from './create-organization.command';
import { CreateOrganizationRequest } from './create-organization.request';

@ApiTags('organizations')
@Controller()
export class CreateOrganizationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Post('orgs')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrganization', summary: 'Create an organization; the caller becomes its admin' })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateOrganizationRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(new CreateOrganizationCommand(actor.userId, body, actor.requestId));
    await this.runtime.settle(created.position, ORGANIZATION_READ_MODELS);
    const { body: organization, revision } = await this.queries.execute(
      new GetOrganizationQuery(created.organizationId, actor.userId),
    );
    void reply.header('location', `${this.urls.api}/orgs/${created.organizationId}`).header('etag', etagOf(revision));
    return organization;
  }
}
