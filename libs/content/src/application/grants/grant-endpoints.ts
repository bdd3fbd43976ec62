import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  Forbidden,
  type ListQuery,
  PAGE_CURSORS,
  type PageCursorCodec,
  READ_STORE,
  type ReadStore,
  Runtime,
  ValidationFailed,
  handleCommand,
  metadataFor,
  readPage,
} from '@app/kernel';
import { type Role } from '@app/kernel/domain';
import { OrganizationAccess, TeamDirectory, UserDirectory } from '@app/identity';
import { type GrantCommand, type GrantTarget, type Grantee, grantsDecider, grantsStream } from '../../domain';
import { ContentAccess } from '../content-access';
import { GRANTS, GRANT_READ_MODELS, type GrantDoc } from '../read-models';

/**
 * Sharing a space or a collection with users and teams. Only those who administer the object share it; members
 * with a role who can see it, and its admins, may list with whom it is shared.
 */
@Injectable()
export class GrantEndpoints {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    private readonly runtime: Runtime,
    private readonly access: ContentAccess,
    private readonly organizations: OrganizationAccess,
    private readonly users: UserDirectory,
    private readonly teams: TeamDirectory,
  ) {}

  /** The object, checked for the caller: its organization. NotFound or Forbidden as the access policy says. */
  private async require(target: GrantTarget, userId: string, required: Role, action: string): Promise<string> {
    return (await this.check(target, userId, required, action)).organizationId;
  }

  private async check(target: GrantTarget, userId: string, required: Role, action: string) {
    if (target.kind === 'space') {
      const { space, viewer, role } = await this.access.requireSpace(target.id, userId, required, action);
      return { organizationId: space.organizationId, viewer, role };
    }
    const { collection, viewer, role } = await this.access.requireCollection(target.id, userId, required, action);
    return { organizationId: collection.organizationId, viewer, role };
  }

  /**
   * Who an object is shared with is for members with a role who can read it, and for its admins: a guest who
   * was only given a lower role does not get to see the others' names and emails.
   */
  private async requireListing(target: GrantTarget, userId: string): Promise<string> {
    const { organizationId, viewer, role } = await this.check(target, userId, 'read', 'see it');
    if (viewer.role === null && role !== 'admin')
      throw new Forbidden(`Guests may not see with whom this ${target.kind} is shared`);
    return organizationId;
  }

  async grant(actor: Actor, target: GrantTarget, body: { role: Role; users?: string[]; teams?: string[] }) {
    const organizationId = await this.require(target, actor.userId, 'admin', 'share it');
    const users = [...new Set(body.users ?? [])];
    const teams = [...new Set(body.teams ?? [])];
    const strangers: string[] = [];
    for (const userId of users) {
      if (!(await this.organizations.membership(organizationId, userId))) strangers.push(userId);
    }
    if (strangers.length > 0)
      throw new ValidationFailed(`users must be members of the organization: ${strangers.join(', ')}`);
    const known = await this.teams.existing(organizationId, teams);
    const unknown = teams.filter((teamId) => !known.has(teamId));
    if (unknown.length > 0)
      throw new ValidationFailed(`teams must be teams of the organization: ${unknown.join(', ')}`);
    const grantees: Grantee[] = [
      ...users.map((id) => ({ kind: 'user' as const, id })),
      ...teams.map((id) => ({ kind: 'team' as const, id })),
    ];
    await this.run(actor, { type: 'GrantAccess', data: { organizationId, target, grantees, role: body.role } });
  }

  async change(actor: Actor, target: GrantTarget, grantee: Grantee, role: Role) {
    const organizationId = await this.require(target, actor.userId, 'admin', 'change who it is shared with');
    await this.run(actor, { type: 'ChangeGrant', data: { organizationId, target, grantee, role } });
  }

  async revoke(actor: Actor, target: GrantTarget, grantee: Grantee) {
    const organizationId = await this.require(target, actor.userId, 'admin', 'change who it is shared with');
    await this.run(actor, { type: 'RevokeGrant', data: { organizationId, target, grantee } });
  }

  /** A grant whose right was checked elsewhere (accepting an invite link). */
  async grantChecked(
    actor: Pick<Actor, 'userId' | 'requestId'>,
    organizationId: string,
    target: GrantTarget,
    grantee: Grantee,
    role: Role,
  ) {
    await this.run(actor, { type: 'GrantAccess', data: { organizationId, target, grantees: [grantee], role } });
  }

  private async run(actor: Pick<Actor, 'userId' | 'requestId'>, command: Omit<GrantCommand, 'metadata'>) {
    const result = await handleCommand(this.events, grantsDecider, grantsStream(command.data.target.id), {
      ...command,
      metadata: metadataFor(this.clock, actor.userId, { correlationId: actor.requestId }),
    } as GrantCommand);
    await this.runtime.settle(result.position, GRANT_READ_MODELS);
  }

  async listUsers(actor: Actor, target: GrantTarget, query: ListQuery) {
    const organizationId = await this.requireListing(target, actor.userId);
    const page = await this.page(organizationId, target, 'user', query);
    const users = await this.users.users(page.items.map((grant) => grant.granteeId));
    return {
      ...page,
      items: page.items.map((grant) => ({ permission: grant.role, user: users.get(grant.granteeId)! })),
    };
  }

  async listTeams(actor: Actor, target: GrantTarget, query: ListQuery) {
    const organizationId = await this.requireListing(target, actor.userId);
    const page = await this.page(organizationId, target, 'team', query);
    const teams = await this.teams.teams(
      organizationId,
      actor.userId,
      page.items.map((grant) => grant.granteeId),
    );
    return {
      ...page,
      items: page.items.flatMap((grant) => {
        const team = teams.get(grant.granteeId);
        return team ? [{ permission: grant.role, team }] : [];
      }),
    };
  }

  /** The grants of the object in its current organization (those from before a move give nothing). */
  private page(organizationId: string, target: GrantTarget, granteeKind: 'user' | 'team', query: ListQuery) {
    return readPage<GrantDoc, GrantDoc>(
      this.store,
      this.cursors,
      {
        collection: GRANTS,
        scope: `grants:${target.id}:${granteeKind}`,
        filter: { targetId: target.id, granteeKind, organizationId },
        sort: [['grantedAt', 1]],
        query,
      },
      (grant) => grant,
    );
  }
}
