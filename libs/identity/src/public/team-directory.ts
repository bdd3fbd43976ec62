import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@app/kernel';
import { TeamViews } from '../application/teams/team-views';
import { TEAMS, type TeamDoc } from '../application/read-models';
import { OrganizationAccess } from './organization-access';

export type TeamBody = Awaited<ReturnType<TeamViews['present']>>[number];

/** Teams as other contexts need them: which ids are teams of an organization, and the spec's OrganizationTeam. */
@Injectable()
export class TeamDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly views: TeamViews,
    private readonly access: OrganizationAccess,
  ) {}

  /** The ids among `teamIds` that are teams of the organization. */
  async existing(organizationId: string, teamIds: readonly string[]): Promise<Set<string>> {
    if (teamIds.length === 0) return new Set();
    const teams = await this.store.getMany<TeamDoc>(TEAMS, [...new Set(teamIds)]);
    return new Set(teams.filter((team) => team.organizationId === organizationId).map((team) => team.id));
  }

  /** The organization's teams with these ids, as the caller sees them (a team gone is left out). */
  async teams(organizationId: string, callerId: string, teamIds: readonly string[]): Promise<Map<string, TeamBody>> {
    const unique = [...new Set(teamIds)];
    const docs = unique.length === 0 ? [] : await this.store.getMany<TeamDoc>(TEAMS, unique);
    const membership = await this.access.membership(organizationId, callerId);
    const viewer = { organizationId, userId: callerId, role: membership?.role ?? null };
    const presented = await this.views.present(
      viewer,
      docs.filter((team) => team.organizationId === organizationId),
    );
    return new Map(presented.map((team) => [team.id, team]));
  }
}
