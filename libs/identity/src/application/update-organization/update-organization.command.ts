import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  IllegalState,
  READ_STORE,
  type ReadStore,
  handleCommand,
  loadState,
  metadataFor,
  requireIfMatch,
  type IfMatch,
} from '@app/kernel';
import {
  type HostnameCommand,
  type OrganizationEvent,
  hostnameDecider,
  hostnameStream,
  organizationStream,
} from '../../domain';
import { organizations } from '../deciders';
import { OrganizationAccess } from '../../public/organization-access';
import { ORGANIZATIONS, type OrganizationDoc } from '../read-models';
import { type UpdateOrganizationRequest } from './update-organization.request';

type Metadata = ReturnType<typeof metadataFor>;

/** The hostname an organization has, as its own stream says (the read model may lag behind it). */
const hostnameOfOrganization = {
  initialState: (): string | undefined => undefined,
  evolve: (hostname: string | undefined, event: OrganizationEvent): string | undefined =>
    event.type === 'OrganizationUpdated' && event.data.changes.hostname !== undefined
      ? event.data.changes.hostname
      : hostname,
};

export class UpdateOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly changes: UpdateOrganizationRequest,
    readonly ifMatch: IfMatch | undefined,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(UpdateOrganizationCommand)
export class UpdateOrganizationHandler implements ICommandHandler<UpdateOrganizationCommand> {
  private readonly logger = new Logger('UpdateOrganization');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly access: OrganizationAccess,
  ) {}

  async execute({
    organizationId,
    userId,
    changes,
    ifMatch,
    correlationId,
  }: UpdateOrganizationCommand): Promise<CommandResult> {
    await this.access.requireRole(organizationId, userId, 'admin', 'change its settings');
    const metadata = metadataFor(this.clock, userId, { correlationId });
    // A hostname is an address (and a subdomain lookup): one organization each. The name's own stream decides
    // (two simultaneous claims cannot both pass); the read model is checked too, for names taken before those
    // streams existed.
    let claimed: string | undefined;
    let previous: string | undefined;
    if (changes.hostname !== undefined) {
      const organization = await this.reads.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
      previous = organization?.hostname;
      // a stale If-Match is refused before the name is claimed (the update checks it again on its stream)
      if (organization) requireIfMatch(ifMatch, organization.revision);
      const taken = await this.reads.find<OrganizationDoc>(ORGANIZATIONS, {
        filter: { hostname: changes.hostname, id: { $ne: organizationId } },
        limit: 1,
      });
      if (taken.items.length > 0) throw new IllegalState(`hostname ${changes.hostname} is taken`);
      if (changes.hostname !== previous) {
        await this.claim(changes.hostname, organizationId, metadata);
        claimed = changes.hostname;
      }
    }
    const plain = JSON.parse(JSON.stringify(changes)) as Record<string, unknown>;
    let result;
    try {
      result = await handleCommand(
        this.store,
        organizations,
        organizationStream(organizationId),
        { type: 'UpdateOrganization', data: { organizationId, changes: plain }, metadata },
        { ifMatch },
      );
    } catch (error) {
      // The organization did not take the name: it goes back to nobody.
      if (claimed !== undefined) await this.releaseQuietly(claimed, organizationId, metadata);
      throw error;
    }
    if (claimed !== undefined && previous !== undefined) {
      await this.releaseQuietly(previous, organizationId, metadata);
    }
    return { position: result.position, revision: result.revision };
  }

  /**
   * Claims the name on its own stream. A name another organization holds is taken over only when that
   * organization's own stream says it does not have it (a claim whose update failed, or a name it left whose release
   * failed) and the hold is older than the decider's grace period; otherwise the refusal stands (409).
   */
  private async claim(hostname: string, organizationId: string, metadata: Metadata): Promise<void> {
    const claim = (lapsedHolder?: string) =>
      this.decideHostname({
        type: 'ClaimHostname',
        data: lapsedHolder === undefined ? { hostname, organizationId } : { hostname, organizationId, lapsedHolder },
        metadata,
      });
    try {
      await claim();
    } catch (error) {
      if (!(error instanceof IllegalState)) throw error;
      const { state } = await loadState(this.store, hostnameDecider, hostnameStream(hostname));
      const holder = state.organizationId;
      if (holder === organizationId) return;
      if (holder !== null) {
        const { state: held } = await loadState(this.store, hostnameOfOrganization, organizationStream(holder));
        if (held === hostname) throw error;
      }
      // the decider decides again on the stream as it is then: the same holder, and the grace period
      await claim(holder ?? undefined);
    }
  }

  /**
   * A release that fails leaves the name held by this organization: it can take it back, and another organization
   * can take it once the hold has lapsed (see `claim`).
   */
  private async releaseQuietly(hostname: string, organizationId: string, metadata: Metadata): Promise<void> {
    try {
      await this.decideHostname({ type: 'ReleaseHostname', data: { hostname, organizationId }, metadata });
    } catch (error) {
      this.logger.warn(`hostname ${hostname} of ${organizationId} not released: ${String(error)}`);
    }
  }

  private async decideHostname(command: HostnameCommand): Promise<void> {
    await handleCommand(this.store, hostnameDecider, hostnameStream(command.data.hostname), command);
  }
}
