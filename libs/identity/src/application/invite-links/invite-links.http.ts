import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { InviteLinks } from './invite-links';
import { CreateInviteLinkRequest, UpdateInviteLinkRequest } from './invite-links.request';

/**
 * Invite links. Admins create, list, change and delete them while the organization has `inviteLinks` on (409
 * otherwise); anyone signed in who holds a link's id may read it and accept it.
 */
@ApiTags('organizations')
@Controller()
export class InviteLinksController {
  constructor(private readonly links: InviteLinks) {}

  @Get('orgs/:organizationId/link-invites')
  @ApiOperation({ operationId: 'listOrganizationInviteLinks', summary: 'Invite links to the organization (admins)' })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() query: ListQuery) {
    return this.links.list(actor, organizationId, query);
  }

  @Post('orgs/:organizationId/link-invites')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createOrganizationInvite',
    summary: "Create an invite link (admins); the answer's id is the link's secret, shown only here",
  })
  create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateInviteLinkRequest,
  ) {
    return this.links.create(actor, organizationId, body);
  }

  @Get('orgs/:organizationId/link-invites/:inviteId')
  @ApiOperation({ operationId: 'getOrganizationInviteLink', summary: 'An invite link, for whoever holds it' })
  get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
  ) {
    return this.links.get(actor, organizationId, inviteId);
  }

  @Patch('orgs/:organizationId/link-invites/:inviteId')
  @ApiOperation({ operationId: 'updateOrganizationInviteById', summary: 'Change the role or level of a link (admins)' })
  update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
    @Body() body: UpdateInviteLinkRequest,
  ) {
    return this.links.update(actor, organizationId, inviteId, body);
  }

  @Delete('orgs/:organizationId/link-invites/:inviteId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteOrganizationInviteById', summary: 'Delete an invite link (admins)' })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
  ): Promise<void> {
    await this.links.delete(actor, organizationId, inviteId);
  }

  @Post('orgs/:organizationId/invites/:inviteId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'joinOrganizationWithInvite',
    summary: 'Accept an invite link: join with its role, or get its level on its space or collection',
  })
  accept(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
  ) {
    return this.links.accept(actor, organizationId, inviteId);
  }
}
