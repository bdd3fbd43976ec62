import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  BLOB_STORE,
  type BlobStore,
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  type IfMatch,
  handleCommand,
  metadataFor,
  newId,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import {
  type OpenAPISpecCommand,
  type OpenAPISpecSource,
  checkSlug,
  checkSourceInput,
  openApiSpecDecider,
  openApiSpecStream,
} from '../../domain';

/** `source` is the body's field as sent: its shape is checked here, before any text is stored. */
export type OpenAPISpecChange =
  | { type: 'CreateOpenAPISpec'; organizationId: string; slug: string; source: unknown }
  | { type: 'SetOpenAPISpecSource'; organizationId: string; slug: string; source: unknown }
  | { type: 'DeleteOpenAPISpec'; organizationId: string; slug: string };

export interface OpenAPISpecChangeResult extends CommandResult {
  /** True when the command created the spec (a POST, or a PUT of a free slug). */
  created: boolean;
}

/**
 * Every change to an OpenAPI spec by a user: the caller must be an admin of the organization (404 for a stranger,
 * 403 for a member below admin). A text source is put in the blob store (content-addressed, so storing the same
 * text twice keeps one copy) and the events carry its key. `If-Match` is honoured on the spec's stream.
 */
export class ChangeOpenAPISpecCommand extends Command<OpenAPISpecChangeResult> {
  constructor(
    readonly userId: string,
    readonly change: OpenAPISpecChange,
    readonly correlationId: string | undefined,
    readonly ifMatch?: IfMatch,
  ) {
    super();
  }
}

@CommandHandler(ChangeOpenAPISpecCommand)
export class ChangeOpenAPISpecHandler implements ICommandHandler<ChangeOpenAPISpecCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly organizations: OrganizationAccess,
  ) {}

  async execute({
    userId,
    change,
    correlationId,
    ifMatch,
  }: ChangeOpenAPISpecCommand): Promise<OpenAPISpecChangeResult> {
    const { organizationId, slug } = change;
    await this.organizations.requireRole(organizationId, userId, 'admin', 'change its OpenAPI specs');
    let command: Omit<OpenAPISpecCommand, 'metadata'>;
    if (change.type === 'DeleteOpenAPISpec') {
      command = { type: 'DeleteOpenAPISpec', data: { organizationId, slug } };
    } else {
      checkSlug(slug);
      const source = await this.store(checkSourceInput(change.source));
      command = {
        type: change.type,
        data: { organizationId, slug, specId: newId(), sourceId: newId(), source },
      };
    }
    const result = await handleCommand(
      this.events,
      openApiSpecDecider,
      openApiSpecStream(organizationId, slug),
      { ...command, metadata: metadataFor(this.clock, userId, { correlationId }) } as OpenAPISpecCommand,
      ifMatch !== undefined ? { ifMatch } : {},
    );
    return {
      position: result.position,
      revision: result.revision,
      created: result.events.some((event) => event.type === 'OpenAPISpecCreated'),
    };
  }

  private async store(source: { url: string } | { text: string }): Promise<OpenAPISpecSource> {
    if ('url' in source) return { kind: 'url', url: source.url };
    const stored = await this.blobs.put(Buffer.from(source.text, 'utf8'));
    return { kind: 'text', blob: stored.key, size: stored.size };
  }
}
