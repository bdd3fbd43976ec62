import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  Forbidden,
  type IfMatch,
  NotFound,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import {
  type InstallIntegration,
  type IntegrationCommand,
  type UninstallIntegration,
  type UnpublishIntegration,
  type UpdateInstallation,
  integrationDecider,
  integrationStream,
} from '../../domain';

type Change<C extends IntegrationCommand> = Omit<C, 'metadata' | 'data'> & {
  data: Omit<C['data'], 'organizationId'>;
};

/**
 * What a caller does to an integration after publishing it. `organization` is who acts: for `InstallIntegration`
 * the organization named in the body; for the others it is found from the stream (the owner, or the installing
 * organization), so the caller never chooses it.
 */
export type IntegrationChange =
  | Change<UnpublishIntegration>
  | (Change<InstallIntegration> & { organizationId: string })
  | Change<UpdateInstallation>
  | Change<UninstallIntegration>;

/**
 * Unpublishing needs an admin of the owning organization; installing an admin of the installing organization;
 * reading, changing or removing an installation an admin of the organization it is installed in. Who cannot see
 * the integration or installation gets 404, a member below admin 403. `If-Match` is the integration's stream.
 */
export class ChangeIntegrationCommand extends Command<CommandResult> {
  constructor(
    readonly userId: string,
    readonly change: IntegrationChange,
    readonly correlationId: string | undefined,
    readonly ifMatch?: IfMatch,
  ) {
    super();
  }
}

@CommandHandler(ChangeIntegrationCommand)
export class ChangeIntegrationHandler implements ICommandHandler<ChangeIntegrationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({ userId, change, correlationId, ifMatch }: ChangeIntegrationCommand): Promise<CommandResult> {
    const organizationId = await this.actingOrganization(userId, change);
    const command = {
      type: change.type,
      data: { ...change.data, organizationId },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    } as IntegrationCommand;
    const result = await handleCommand(
      this.events,
      integrationDecider,
      integrationStream(change.data.name),
      command,
      ifMatch !== undefined ? { ifMatch } : {},
    );
    return { position: result.position, revision: result.revision };
  }

  private async actingOrganization(userId: string, change: IntegrationChange): Promise<string> {
    const { name } = change.data;
    if (change.type === 'InstallIntegration') {
      await this.organizations.requireRole(change.organizationId, userId, 'admin', 'install integrations');
      return change.organizationId;
    }
    const { state } = await loadState(this.events, integrationDecider, integrationStream(name));
    if (state.status === 'absent') throw new NotFound(`Integration ${name} not found`);
    if (change.type === 'UnpublishIntegration') {
      const membership = await this.organizations.membership(state.organizationId, userId);
      const visible = membership || (state.status === 'published' && state.visibility !== 'private');
      if (!visible) throw new NotFound(`Integration ${name} not found`);
      if (membership?.role !== 'admin') {
        throw new Forbidden('You need the admin role in the organization that owns this integration to unpublish it');
      }
      return state.organizationId;
    }
    const installer = state.status === 'published' ? state.installations[change.data.installationId] : undefined;
    if (!installer) throw new NotFound(`Installation ${change.data.installationId} not found`);
    await this.organizations.requireRole(installer, userId, 'admin', 'manage its installations');
    return installer;
  }
}
