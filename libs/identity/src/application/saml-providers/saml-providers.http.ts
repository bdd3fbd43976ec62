import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { SamlProviders } from './saml-providers';
import { CreateSamlProviderRequest, UpdateSamlProviderRequest } from './saml-providers.request';

/** SAML providers (organization admins) and the sign-in list of an organization (its members). */
@ApiTags('sso')
@Controller()
export class SamlProvidersController {
  constructor(private readonly providers: SamlProviders) {}

  @Get('orgs/:organizationId/saml')
  @ApiOperation({ operationId: 'listSAMLProvidersInOrganizationById', summary: 'SAML providers (admins)' })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() query: ListQuery) {
    return this.providers.list(actor, organizationId, query);
  }

  @Post('orgs/:organizationId/saml')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrganizationSAMLProvider', summary: 'Create a SAML provider (admins)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateSamlProviderRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const provider = await this.providers.create(actor, organizationId, { ...body });
    void reply.header('location', provider.urls.location);
    return provider;
  }

  @Get('orgs/:organizationId/saml/:samlProviderId')
  @ApiOperation({ operationId: 'getOrganizationSAMLProviderById', summary: 'A SAML provider (admins)' })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
  ) {
    return this.providers.get(actor, organizationId, providerId);
  }

  @Patch('orgs/:organizationId/saml/:samlProviderId')
  @ApiOperation({ operationId: 'updateOrganizationSAMLProvider', summary: 'Change a SAML provider (admins)' })
  update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
    @Body() body: UpdateSamlProviderRequest,
  ) {
    return this.providers.change(actor, organizationId, providerId, { ...body });
  }

  @Delete('orgs/:organizationId/saml/:samlProviderId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteOrganizationSAMLProvider', summary: 'Delete a SAML provider (admins)' })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
  ): Promise<void> {
    await this.providers.delete(actor, organizationId, providerId);
  }

  @Get('orgs/:organizationId/sso')
  @ApiOperation({
    operationId: 'listSSOProviderLoginsInOrganization',
    summary: 'Where members sign in: the active SAML providers (members of the organization)',
  })
  logins(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string) {
    return this.providers.logins(actor, organizationId);
  }
}
