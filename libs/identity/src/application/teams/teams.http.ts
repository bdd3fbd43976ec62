import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Put, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, ListQuery, PUBLIC_URLS, type PublicUrls, newId } from '@app/kernel';
import { TeamChanges } from './team-changes';
import { TeamViews } from './team-views';
import {
  ChangeTeamMembersRequest,
  CreateTeamRequest,
  ListMemberTeamsParams,
  ListTeamsParams,
  RenameTeamRequest,
  TeamMembershipRequest,
} from './teams.request';

/**
 * Teams of an organization. Admins create and delete them; admins and a team's owners rename it and manage its
 * members, who may be any members of the organization, guests included.
 */
@ApiTags('organizations')
@Controller()
export class TeamsController {
  constructor(
    private readonly views: TeamViews,
    private readonly changes: TeamChanges,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  @Get('orgs/:organizationId/teams')
  @ApiOperation({
    operationId: 'listTeamsInOrganizationById',
    summary: 'Teams of an organization (members with a role)',
  })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() query: ListTeamsParams) {
    return this.views.list(organizationId, actor.userId, query);
  }

  @Put('orgs/:organizationId/teams')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrganizationTeam', summary: 'Create a team, with members (admins)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateTeamRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.changes.requireAdmin(organizationId, actor);
    const teamId = newId();
    const members = await this.changes.userIds(organizationId, body.members ?? []);
    await this.changes.run(actor, {
      type: 'CreateTeam',
      data: { organizationId, teamId, title: body.title, members },
    });
    void reply.header('location', `${this.urls.api}/orgs/${organizationId}/teams/${teamId}`);
    return this.views.team(organizationId, actor.userId, teamId);
  }

  @Get('orgs/:organizationId/teams/:teamId')
  @ApiOperation({ operationId: 'getTeamInOrganizationById', summary: 'A team' })
  get(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Param('teamId') teamId: string) {
    return this.views.team(organizationId, actor.userId, teamId);
  }

  @Patch('orgs/:organizationId/teams/:teamId')
  @ApiOperation({ operationId: 'updateTeamInOrganizationById', summary: 'Rename a team (admins and team owners)' })
  async rename(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Body() body: RenameTeamRequest,
  ) {
    await this.views.requireManager(await this.views.viewer(organizationId, actor.userId), teamId);
    await this.changes.run(actor, { type: 'RenameTeam', data: { organizationId, teamId, title: body.title } });
    return this.views.team(organizationId, actor.userId, teamId);
  }

  @Delete('orgs/:organizationId/teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeTeamFromOrganizationById', summary: 'Delete a team (admins)' })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
  ): Promise<void> {
    await this.changes.requireAdmin(organizationId, actor);
    await this.changes.run(actor, { type: 'DeleteTeam', data: { organizationId, teamId } });
  }

  @Get('orgs/:organizationId/teams/:teamId/members')
  @ApiOperation({ operationId: 'listTeamMembersInOrganizationById', summary: 'Members of a team' })
  members(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Query() query: ListQuery,
  ) {
    return this.views.members(organizationId, actor.userId, teamId, query);
  }

  @Put('orgs/:organizationId/teams/:teamId/members')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateMembersInOrganizationTeam',
    summary: 'Add, remove and re-role team members (admins and team owners)',
  })
  async changeMembers(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Body() body: ChangeTeamMembersRequest,
  ): Promise<void> {
    await this.views.requireManager(await this.views.viewer(organizationId, actor.userId), teamId);
    const roles: Record<string, 'owner' | 'member'> = {};
    for (const [userId, membership] of Object.entries(body.memberships ?? {})) roles[userId] = membership.role;
    await this.changes.run(actor, {
      type: 'ChangeTeamMembers',
      data: {
        organizationId,
        teamId,
        add: await this.changes.userIds(organizationId, body.add ?? []),
        remove: await this.changes.userIds(organizationId, body.remove ?? []),
        roles,
      },
    });
  }

  @Put('orgs/:organizationId/teams/:teamId/members/:userId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'addMemberToOrganizationTeamById',
    summary: 'Put a member in a team, or change their role in it (admins and team owners)',
  })
  async setMember(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
    @Body() body: TeamMembershipRequest,
  ): Promise<void> {
    await this.views.requireManager(await this.views.viewer(organizationId, actor.userId), teamId);
    await this.changes.run(actor, {
      type: 'SetTeamMember',
      data: { organizationId, teamId, userId, ...(body.role ? { role: body.role } : {}) },
    });
  }

  @Delete('orgs/:organizationId/teams/:teamId/members/:userId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteMemberFromOrganizationTeamById',
    summary: 'Take a member out of a team (admins, team owners, or the member themselves)',
  })
  async removeMember(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
  ): Promise<void> {
    const viewer = await this.views.viewer(organizationId, actor.userId);
    if (userId === actor.userId) await this.views.requireTeam(viewer, teamId);
    else await this.views.requireManager(viewer, teamId);
    await this.changes.run(actor, { type: 'RemoveTeamMember', data: { organizationId, teamId, userId } });
  }

  @Get('orgs/:organizationId/members/:userId/teams')
  @ApiOperation({ operationId: 'listTeamsForOrganizationMember', summary: 'The teams a member is in' })
  teamsOfMember(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Query() query: ListMemberTeamsParams,
  ) {
    return this.views.teamsOfMember(organizationId, actor.userId, userId, query);
  }
}
