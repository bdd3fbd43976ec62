import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { GrantEndpoints } from './grant-endpoints';
import { InviteUsersAndTeamsRequest, UpdateGrantRequest } from './grants.request';

/**
 * Who a space or a collection is shared with, beyond the organization's roles and default levels: users (guests
 * too) and teams, each with a role. A grant on a collection reaches everything inside it.
 */
@ApiTags('permissions')
@Controller()
export class GrantsController {
  constructor(private readonly grants: GrantEndpoints) {}

  @Post('spaces/:spaceId/permissions')
  @HttpCode(204)
  @ApiOperation({ operationId: 'inviteToSpace', summary: 'Share the space with users and teams (admins of it)' })
  async shareSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Body() body: InviteUsersAndTeamsRequest,
  ): Promise<void> {
    await this.grants.grant(actor, { kind: 'space', id }, body);
  }

  @Get('spaces/:spaceId/permissions/users')
  @ApiOperation({ operationId: 'listUserPermissionsInSpace', summary: 'Users the space is shared with' })
  usersSpace(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() query: ListQuery) {
    return this.grants.listUsers(actor, { kind: 'space', id }, query);
  }

  @Get('spaces/:spaceId/permissions/teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInSpace', summary: 'Teams the space is shared with' })
  teamsSpace(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() query: ListQuery) {
    return this.grants.listTeams(actor, { kind: 'space', id }, query);
  }

  @Patch('spaces/:spaceId/permissions/users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInSpace', summary: "Change a user's role on the space" })
  async updateUserInSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('userId') userId: string,
    @Body() body: UpdateGrantRequest,
  ): Promise<void> {
    await this.grants.change(actor, { kind: 'space', id }, { kind: 'user', id: userId }, body.role);
  }

  @Delete('spaces/:spaceId/permissions/users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeUserFromSpace', summary: 'Stop sharing the space with a user' })
  async removeUserFromSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('userId') userId: string,
  ): Promise<void> {
    await this.grants.revoke(actor, { kind: 'space', id }, { kind: 'user', id: userId });
  }

  @Patch('spaces/:spaceId/permissions/teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInSpace', summary: "Change a team's role on the space" })
  async updateTeamInSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateGrantRequest,
  ): Promise<void> {
    await this.grants.change(actor, { kind: 'space', id }, { kind: 'team', id: teamId }, body.role);
  }

  @Delete('spaces/:spaceId/permissions/teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeTeamFromSpace', summary: 'Stop sharing the space with a team' })
  async removeTeamFromSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('teamId') teamId: string,
  ): Promise<void> {
    await this.grants.revoke(actor, { kind: 'space', id }, { kind: 'team', id: teamId });
  }

  @Post('collections/:collectionId/permissions')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'inviteToCollection',
    summary: 'Share the collection with users and teams (admins of it)',
  })
  async shareCollection(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Body() body: InviteUsersAndTeamsRequest,
  ): Promise<void> {
    await this.grants.grant(actor, { kind: 'collection', id }, body);
  }

  @Get('collections/:collectionId/permissions/users')
  @ApiOperation({ operationId: 'listUserPermissionsInCollection', summary: 'Users the collection is shared with' })
  usersCollection(@CurrentActor() actor: Actor, @Param('collectionId') id: string, @Query() query: ListQuery) {
    return this.grants.listUsers(actor, { kind: 'collection', id }, query);
  }

  @Get('collections/:collectionId/permissions/teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInCollection', summary: 'Teams the collection is shared with' })
  teamsCollection(@CurrentActor() actor: Actor, @Param('collectionId') id: string, @Query() query: ListQuery) {
    return this.grants.listTeams(actor, { kind: 'collection', id }, query);
  }

  @Patch('collections/:collectionId/permissions/users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInCollection', summary: "Change a user's role on the collection" })
  async updateUserInCollection(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Param('userId') userId: string,
    @Body() body: UpdateGrantRequest,
  ): Promise<void> {
    await this.grants.change(actor, { kind: 'collection', id }, { kind: 'user', id: userId }, body.role);
  }

  @Delete('collections/:collectionId/permissions/users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeUserFromCollection', summary: 'Stop sharing the collection with a user' })
  async removeUserFromCollection(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Param('userId') userId: string,
  ): Promise<void> {
    await this.grants.revoke(actor, { kind: 'collection', id }, { kind: 'user', id: userId });
  }

  @Patch('collections/:collectionId/permissions/teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInCollection', summary: "Change a team's role on the collection" })
  async updateTeamInCollection(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateGrantRequest,
  ): Promise<void> {
    await this.grants.change(actor, { kind: 'collection', id }, { kind: 'team', id: teamId }, body.role);
  }

  @Delete('collections/:collectionId/permissions/teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeTeamFromCollection', summary: 'Stop sharing the collection with a team' })
  async removeTeamFromCollection(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Param('teamId') teamId: string,
  ): Promise<void> {
    await this.grants.revoke(actor, { kind: 'collection', id }, { kind: 'team', id: teamId });
  }
}
