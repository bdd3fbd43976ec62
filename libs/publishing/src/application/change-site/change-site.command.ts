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
import { type SiteCommand, type SiteEvent, siteDecider, siteStream } from '../../domain';
import { SiteAccess } from '../site-access';

/** A site command as a use case writes it: the metadata is added here. */
export type SiteChange = SiteCommand extends infer C ? (C extends SiteCommand ? Omit<C, 'metadata'> : never) : never;

export interface SiteChanged extends CommandResult {
  events: SiteEvent[];
}

/**
 * Every change to a site goes through this one command: the caller must be an admin of the site's organization,
 * then the site decider decides on the site's stream (with `If-Match` when the client sent one). The use cases
 * (one folder per endpoint) build the `SiteChange`; rules that need other contexts (may the caller read this
 * space?) are checked by them before.
 */
export class ChangeSiteCommand extends Command<SiteChanged> {
  constructor(
    readonly userId: string,
    readonly change: SiteChange,
    readonly correlationId: string | undefined,
    readonly ifMatch?: IfMatch,
  ) {
    super();
  }
}

@CommandHandler(ChangeSiteCommand)
export class ChangeSiteHandler implements ICommandHandler<ChangeSiteCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: SiteAccess,
  ) {}

  async execute({ userId, change, correlationId, ifMatch }: ChangeSiteCommand): Promise<SiteChanged> {
    await this.access.requireOrganization(change.data.organizationId, userId, 'admin', 'change its sites');
    const result = await handleCommand(
      this.events,
      siteDecider,
      siteStream(change.data.siteId),
      { ...change, metadata: metadataFor(this.clock, userId, { correlationId }) } as SiteCommand,
      ifMatch !== undefined ? { ifMatch } : {},
    );
    return { events: result.events, position: result.position, revision: result.revision };
  }
}
