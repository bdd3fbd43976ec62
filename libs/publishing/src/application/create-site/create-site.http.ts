import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { REVISION_READ_MODELS } from '@app/content';
import { PUBLISHING_READ_MODELS } from '../read-models';
import { SiteEndpoints } from '../site-endpoints';
import { CreateSiteCommand } from './create-site.command';
import { CreateSiteRequest } from './create-site.request';

@ApiTags('sites')
@Controller()
export class CreateSiteController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
    private readonly endpoints: SiteEndpoints,
  ) {}

  @Post('orgs/:organizationId/sites')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSite', summary: 'Create a docs site (admin)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateSiteRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(
      new CreateSiteCommand(
        organizationId,
        actor.userId,
        {
          type: body.type ?? 'basic',
          title: body.title ?? 'Docs site',
          visibility: body.visibility ?? 'public',
          spaces: body.spaces ?? [],
        },
        actor.requestId,
      ),
    );
    // a space made for the site is shown in the answer: wait for content's read models too
    await this.runtime.settle(created.position, [...PUBLISHING_READ_MODELS, ...REVISION_READ_MODELS]);
    const site = (await this.endpoints.read(actor, organizationId, created.siteId, { kind: 'site' }, reply)) as {
      urls: { location: string };
    };
    void reply.header('location', site.urls.location);
    return site;
  }
}
