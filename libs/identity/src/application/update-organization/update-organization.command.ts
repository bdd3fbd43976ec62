import { Inject } from '@nestjs/common';
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
  metadataFor,
  type IfMatch,
} from '@app/kernel';
import { organizationStream } from '../../domain';
import { organizations } from '../deciders';
import { OrganizationAccess } from '../../public/organization-access';
import { ORGANIZATIONS, type OrganizationDoc } from '../read-models';
import { type UpdateOrganizationRequest } from './update-organization.request';

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
    // A hostname is an address (and a subdomain lookup): one organization each. Checked on the read model, so two
    // simultaneous claims of one name could both pass; the lookup then answers the oldest organization.
    if (changes.hostname !== undefined) {
      const taken = await this.reads.find<OrganizationDoc>(ORGANIZATIONS, {
        filter: { hostname: changes.hostname, id: { $ne: organizationId } },
        limit: 1,
      });
      if (taken.items.length > 0) throw new IllegalState(`hostname ${changes.hostname} is taken`);
    }
    const plain = JSON.parse(JSON.stringify(changes)) as Record<string, unknown>;
    const result = await handleCommand(
      this.store,
      organizations,
      organizationStream(organizationId),
      {
        type: 'UpdateOrganization',
        data: { organizationId, changes: plain },
        metadata: metadataFor(this.clock, userId, { correlationId }),
      },
      { ifMatch },
    );
    return { position: result.position, revision: result.revision };
  }
}
