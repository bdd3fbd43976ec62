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
} from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { organizationStream } from '../../domain';
import { organizations } from '../deciders';
import { OrganizationAccess } from '../../public/organization-access';

export class UpdateMemberCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly callerId: string,
    readonly memberId: string,
    readonly role: RoleOrGuest,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(UpdateMemberCommand)
export class UpdateMemberHandler implements ICommandHandler<UpdateMemberCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: OrganizationAccess,
  ) {}

  async execute({
    organizationId,
    callerId,
    memberId,
    role,
    correlationId,
  }: UpdateMemberCommand): Promise<CommandResult> {
    await this.access.requireRole(organizationId, callerId, 'admin', "change members' roles");
    const result = await handleCommand(this.store, organizations, organizationStream(organizationId), {
      type: 'ChangeMemberRole',
      data: { organizationId, userId: memberId, role },
      metadata: metadataFor(this.clock, callerId, { correlationId }),
    });
    return { position: result.position, revision: result.revision };
  }
}
