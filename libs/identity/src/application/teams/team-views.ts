import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  type Filter,
  Forbidden,
  type ListQuery,
  type ListResponse,
  NotFound,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  readPage,
} from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { organizationPermissions, teamPermissions } from '../../domain/organization-permissions';
import { OrganizationAccess } from '../../public/organization-access';
import { TEAM_SPACES, type TeamSpaces } from '../../public/team-spaces';
import { People } from '../personal-data/people';
import { presentMember } from '../presenters';
import {
  MEMBERS,
  type MemberDoc,
  TEAMS,
  TEAM_MEMBERS,
  type TeamDoc,
  type TeamMemberDoc,
  memberDocId,
  teamMemberDocId,
} from '../read-models';
import { type ListMemberTeamsParams, type ListTeamsParams } from './teams.request';

/** The caller in an organization and their role there. */
export interface TeamViewer {
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
}

/** Teams as the spec shows them (`OrganizationTeam`, `OrganizationTeamMember`), read from the read models. */
@Injectable()
export class TeamViews {
  private spaces?: TeamSpaces | null;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: OrganizationAccess,
    private readonly modules: ModuleRef,
    private readonly people: People,
  ) {}

  /** The caller as a member of the organization; NotFound when they are not one. */
  async viewer(organizationId: string, userId: string): Promise<TeamViewer> {
    return { organizationId, userId, role: await this.access.requireMember(organizationId, userId) };
  }

  /** The caller's role in a team (undefined when not in it). */
  async teamRoleOf(viewer: TeamViewer, teamId: string) {
    const membership = await this.store.get<TeamMemberDoc>(TEAM_MEMBERS, teamMemberDocId(teamId, viewer.userId));
    return membership?.role;
  }

  /** A team of the organization the caller may see; NotFound otherwise (another organization's team included). */
  async requireTeam(viewer: TeamViewer, teamId: string) {
    const team = await this.store.get<TeamDoc>(TEAMS, teamId);
    if (!team || team.organizationId !== viewer.organizationId) throw new NotFound(`Team ${teamId} not found`);
    const permissions = teamPermissions(viewer.role, await this.teamRoleOf(viewer, teamId));
    if (!permissions.view) throw new NotFound(`Team ${teamId} not found`);
    return { team, permissions };
  }

  /** A team the caller may manage (organization admins, and the team's owners); Forbidden otherwise. */
  async requireManager(viewer: TeamViewer, teamId: string) {
    const found = await this.requireTeam(viewer, teamId);
    if (!found.permissions.admin) throw new Forbidden('Only organization admins and team owners manage a team');
    return found;
  }

  async team(organizationId: string, callerId: string, teamId: string) {
    const viewer = await this.viewer(organizationId, callerId);
    const { team } = await this.requireTeam(viewer, teamId);
    return (await this.present(viewer, [team]))[0];
  }

  async list(organizationId: string, callerId: string, params: ListTeamsParams) {
    const viewer = await this.viewer(organizationId, callerId);
    if (!organizationPermissions(viewer.role).listTeams)
      throw new Forbidden('You may not list the teams of this organization');
    const filter: Filter = { organizationId };
    if (params.title) filter.title = { $contains: params.title };
    if (params.owner) {
      const owner = await this.store.get<MemberDoc>(MEMBERS, memberDocId(organizationId, params.owner));
      if (!owner) filter.id = { $in: [] };
      else if (owner.role !== 'admin') filter.id = { $in: await this.ownedTeams(organizationId, params.owner) };
    }
    const page = await readPage<TeamDoc, TeamDoc>(
      this.store,
      this.cursors,
      {
        collection: TEAMS,
        scope: `teams:${organizationId}:${params.title ?? ''}:${params.owner ?? ''}`,
        filter,
        sort: [['createdAt', 1]],
        query: params,
      },
      (team) => team,
    );
    return { ...page, items: await this.present(viewer, page.items) };
  }

  /** The members of a team, each as an organization member with their role in the team. */
  async members(organizationId: string, callerId: string, teamId: string, params: ListQuery) {
    const viewer = await this.viewer(organizationId, callerId);
    await this.requireTeam(viewer, teamId);
    const page = await readPage<TeamMemberDoc, TeamMemberDoc>(
      this.store,
      this.cursors,
      {
        collection: TEAM_MEMBERS,
        scope: `team-members:${teamId}`,
        filter: { teamId },
        sort: [['addedAt', 1]],
        query: params,
      },
      (membership) => membership,
    );
    const members = await this.store.getMany<MemberDoc>(
      MEMBERS,
      page.items.map((membership) => memberDocId(organizationId, membership.userId)),
    );
    const byUser = new Map(members.map((member) => [member.userId, member]));
    const people = await this.people.byIds(members.map((member) => member.userId));
    const items = page.items.flatMap((membership) => {
      const member = byUser.get(membership.userId);
      if (!member) return [];
      return [
        {
          organization: presentMember(member, people.get(member.userId)!, this.urls),
          team: { role: membership.role },
          permissions: { view: true },
        },
      ];
    });
    return { ...page, items };
  }

  /** The teams a member is in, with their role in each; members see their own, listers of teams anyone's. */
  async teamsOfMember(organizationId: string, callerId: string, userId: string, params: ListMemberTeamsParams) {
    const viewer = await this.viewer(organizationId, callerId);
    if (userId !== callerId && !organizationPermissions(viewer.role).listTeams)
      throw new Forbidden("You may not list other members' teams");
    const member = await this.store.get<MemberDoc>(MEMBERS, memberDocId(organizationId, userId));
    if (!member) throw new NotFound(`User ${userId} is not a member of this organization`);
    const filter: Filter = { organizationId, userId };
    if (params.title) {
      const titled = await this.store.find<TeamDoc>(TEAMS, {
        filter: { organizationId, title: { $contains: params.title } },
        limit: 100_000,
      });
      filter.teamId = { $in: titled.items.map((team) => team.id) };
    }
    const page = await readPage<TeamMemberDoc, TeamMemberDoc>(
      this.store,
      this.cursors,
      {
        collection: TEAM_MEMBERS,
        scope: `member-teams:${organizationId}:${userId}:${params.title ?? ''}`,
        filter,
        sort: [['addedAt', 1]],
        query: params,
      },
      (membership) => membership,
    );
    const teams = await this.store.getMany<TeamDoc>(
      TEAMS,
      page.items.map((membership) => membership.teamId),
    );
    const presented = new Map((await this.present(viewer, teams)).map((team) => [team.id, team]));
    const items = page.items.flatMap((membership) => {
      const team = presented.get(membership.teamId);
      return team ? [{ team, member: { role: membership.role } }] : [];
    });
    return { ...page, items } satisfies ListResponse<unknown>;
  }

  /** The ids of the teams a member owns. */
  private async ownedTeams(organizationId: string, userId: string): Promise<string[]> {
    const owned = await this.store.find<TeamMemberDoc>(TEAM_MEMBERS, {
      filter: { organizationId, userId, role: 'owner' },
      limit: 100_000,
    });
    return owned.items.map((membership) => membership.teamId);
  }

  /** The spec's OrganizationTeam, with the caller's permissions on each team. */
  async present(viewer: TeamViewer, teams: readonly TeamDoc[]) {
    const ids = teams.map((team) => team.id);
    const memberships =
      ids.length === 0
        ? []
        : await this.store.getMany<TeamMemberDoc>(
            TEAM_MEMBERS,
            ids.map((teamId) => teamMemberDocId(teamId, viewer.userId)),
          );
    const ownRole = new Map(memberships.map((membership) => [membership.teamId, membership.role]));
    const spaces = ids.length === 0 ? new Map<string, number>() : await this.spaceCounts(viewer.organizationId, ids);
    return teams.map((team) => ({
      object: 'team' as const,
      id: team.id,
      title: team.title,
      members: team.members,
      spaces: spaces.get(team.id) ?? 0,
      createdAt: team.createdAt,
      permissions: teamPermissions(viewer.role, ownRole.get(team.id)),
    }));
  }

  private async spaceCounts(organizationId: string, teamIds: string[]): Promise<Map<string, number>> {
    if (this.spaces === undefined) {
      try {
        this.spaces = this.modules.get<TeamSpaces>(TEAM_SPACES, { strict: false });
      } catch {
        this.spaces = null;
      }
    }
    return this.spaces ? this.spaces.spaceCounts(organizationId, teamIds) : new Map();
  }
}
