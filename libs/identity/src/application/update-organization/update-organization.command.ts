import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  metadataFor,
  type IfMatch,
} from '@app/kernel';
import { organizationDecider, organizationStream } from '../../domain';
import { OrganizationAccess } from '../../public/organization-access';
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
    const plain = JSON.parse(JSON.stringify(changes)) as Record<string, unknown>;
    const result = await handleCommand(
      this.store,
      organizationDecider,
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
