import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, parseIfMatch } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';
import { UpdateSiteRequest } from './update-site.request';

@ApiTags('sites')
@Controller()
export class UpdateSiteController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Patch('orgs/:organizationId/sites/:siteId')
  @ApiOperation({ operationId: 'updateSiteById', summary: 'Change a docs site (admin)' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: UpdateSiteRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.endpoints.change(
      actor,
      {
        type: 'UpdateSite',
        data: {
          siteId,
          organizationId,
          changes: {
            title: body.title,
            visibility: body.visibility,
            basename: body.basename,
            adaptiveContent: body.adaptiveContent,
            agentsContext: body.agentsContext,
            proxy: body.proxy,
          },
          defaultSiteSpace: body.defaultSiteSpace,
          defaultSiteSection: body.defaultSiteSection,
        },
      },
      parseIfMatch(ifMatch),
    );
    return this.endpoints.read(actor, organizationId, siteId, { kind: 'site' }, reply);
  }
}
