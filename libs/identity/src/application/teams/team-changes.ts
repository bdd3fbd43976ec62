import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  Forbidden,
  READ_STORE,
  type ReadStore,
  Runtime,
  ValidationFailed,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { type OrganizationCommand, emailStream, organizationStream } from '../../domain';
import { emailAddresses, organizations } from '../deciders';
import { MEMBERS, type MemberDoc, TEAM_READ_MODELS, memberDocId } from '../read-models';
import { emailKey } from '../tokens';
import { type TeamViewer, TeamViews } from './team-views';

type TeamCommand = Extract<
  OrganizationCommand,
  { type: 'CreateTeam' | 'RenameTeam' | 'DeleteTeam' | 'ChangeTeamMembers' | 'SetTeamMember' | 'RemoveTeamMember' }
>;

/**
 * Runs team commands on the organization's stream (teams live in it: a member who leaves the organization leaves
 * its teams in the same append) after checking the caller may, then waits for the team read models.
 */
@Injectable()
export class TeamChanges {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runtime: Runtime,
    private readonly views: TeamViews,
  ) {}

  /** Only organization admins create and delete teams. */
  async requireAdmin(organizationId: string, actor: Actor): Promise<TeamViewer> {
    const viewer = await this.views.viewer(organizationId, actor.userId);
    if (viewer.role !== 'admin') throw new Forbidden('Only organization admins create and delete teams');
    return viewer;
  }

  async run(actor: Actor, command: Omit<TeamCommand, 'metadata'>): Promise<void> {
    const result = await handleCommand(this.events, organizations, organizationStream(command.data.organizationId), {
      ...command,
      metadata: metadataFor(this.clock, actor.userId, { correlationId: actor.requestId }),
    } as TeamCommand);
    await this.runtime.settle(result.position, TEAM_READ_MODELS);
  }

  /**
   * Member ids for a list of user ids or emails (an email must be a member's; 400 otherwise). Addresses are sealed
   * in the read models, so an email is found through its address's stream (who claimed it), then its membership.
   */
  async userIds(organizationId: string, entries: readonly string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const entry of entries) {
      if (!entry.includes('@')) {
        ids.push(entry);
        continue;
      }
      const { state } = await loadState(this.events, emailAddresses, emailStream(emailKey(entry)));
      const member =
        state.status === 'claimed'
          ? await this.store.get<MemberDoc>(MEMBERS, memberDocId(organizationId, state.userId))
          : null;
      if (!member) throw new ValidationFailed(`${entry} is not the email of a member`);
      ids.push(member.userId);
    }
    return ids;
  }
}
