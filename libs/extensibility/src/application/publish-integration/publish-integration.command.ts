import { createHash } from 'node:crypto';
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
  IllegalState,
  type IfMatch,
  ValidationFailed,
  handleCommand,
  loadState,
  metadataFor,
  SECRET_BOX,
  type SecretBox,
} from '@app/kernel';
import { OrganizationAccess } from '@app/identity';
import {
  INTEGRATION_LIMITS,
  type IntegrationAsset,
  type IntegrationPublication,
  type PublishIntegration,
  type SealedSecrets,
  checkIntegrationName,
  checkPublication,
  integrationDecider,
  integrationStream,
} from '../../domain';
import { IntegrationAccess } from '../integration-access';
import { readImage } from './integration-images';
import { type PublishIntegrationRequest } from './publish-integration.request';

/** Secrets: names like environment variables, values of at most 10,000 characters. */
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
const SECRET_VALUE_MAX = 10_000;

function checkSecrets(secrets: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(secrets);
  if (entries.length > INTEGRATION_LIMITS.secrets) {
    throw new ValidationFailed(`secrets: at most ${INTEGRATION_LIMITS.secrets} secrets`);
  }
  for (const [name, value] of entries) {
    // Never echo a value: only names appear in messages.
    if (!SECRET_NAME.test(name)) throw new ValidationFailed('secrets: a name must be letters, digits, _ . or -');
    if (typeof value !== 'string') throw new ValidationFailed(`secrets.${name}: must be a string`);
    if (value.length > SECRET_VALUE_MAX) {
      throw new ValidationFailed(`secrets.${name}: must have at most ${SECRET_VALUE_MAX} characters`);
    }
  }
  return secrets as Record<string, string>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Publishes an integration (a first version or the next one). The caller must be an admin of the organization the
 * body names by id or hostname; a name another organization owns is 409. Images are checked by their bytes and
 * kept in the blob store, the script too (by its SHA-256), and secrets are sealed before anything is appended.
 */
export class PublishIntegrationCommand extends Command<CommandResult> {
  constructor(
    readonly userId: string,
    readonly name: string,
    readonly body: PublishIntegrationRequest,
    readonly correlationId: string | undefined,
    readonly ifMatch?: IfMatch,
  ) {
    super();
  }
}

@CommandHandler(PublishIntegrationCommand)
export class PublishIntegrationHandler implements ICommandHandler<PublishIntegrationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly organizations: OrganizationAccess,
    private readonly integrations: IntegrationAccess,
  ) {}

  async execute({ userId, name, body, correlationId, ifMatch }: PublishIntegrationCommand): Promise<CommandResult> {
    checkIntegrationName(name);
    const organizationId = await this.integrations.organizationId(body.organization, userId);
    await this.organizations.requireRole(organizationId, userId, 'admin', 'publish integrations');

    const icon = body.icon !== undefined ? readImage('icon', body.icon) : undefined;
    const previews = (body.previewImages ?? []).map((text, index) => readImage(`previewImages[${index}]`, text));
    const secrets = body.secrets !== undefined ? checkSecrets(body.secrets) : undefined;
    const script = Buffer.from(body.script, 'utf8');
    const asset = (image: { bytes: Buffer; contentType: IntegrationAsset['contentType'] }): IntegrationAsset => ({
      key: sha256(image.bytes),
      contentType: image.contentType,
    });
    const publication: IntegrationPublication = {
      title: body.title,
      description: body.description,
      ...(body.summary !== undefined ? { summary: body.summary } : {}),
      ...(icon ? { icon: asset(icon) } : {}),
      previewImages: previews.map(asset),
      visibility: body.visibility ?? 'private',
      target: body.target ?? 'all',
      scopes: body.scopes as IntegrationPublication['scopes'],
      categories: (body.categories ?? []) as IntegrationPublication['categories'],
      blocks: (body.blocks ?? []) as IntegrationPublication['blocks'],
      contentSources: (body.contentSources ?? []) as IntegrationPublication['contentSources'],
      externalLinks: (body.externalLinks ?? []) as IntegrationPublication['externalLinks'],
      configurations: (body.configurations ?? {}) as IntegrationPublication['configurations'],
      scriptHash: sha256(script),
      ...(body.contentSecurityPolicy !== undefined
        ? { contentSecurityPolicy: body.contentSecurityPolicy as IntegrationPublication['contentSecurityPolicy'] }
        : {}),
      runtime: body.runtime ?? 'v1',
    };
    checkPublication(publication, secrets ? Object.keys(secrets).length : 0);

    // Refuse a name another organization holds before any bytes are stored (the decider checks it again).
    const { state } = await loadState(this.events, integrationDecider, integrationStream(name));
    if (state.status !== 'absent' && state.organizationId !== organizationId) {
      throw new IllegalState(`The name ${name} belongs to another organization`);
    }

    for (const image of [...(icon ? [icon] : []), ...previews]) await this.blobs.put(image.bytes);
    await this.blobs.put(script);
    const sealed: SealedSecrets | undefined = secrets
      ? { sealed: this.secretBox.seal(secrets, name), count: Object.keys(secrets).length }
      : undefined;

    const command: PublishIntegration = {
      type: 'PublishIntegration',
      data: { name, organizationId, publication, ...(sealed ? { secrets: sealed } : {}) },
      metadata: metadataFor(this.clock, userId, { correlationId }),
    };
    const result = await handleCommand(
      this.events,
      integrationDecider,
      integrationStream(name),
      command,
      ifMatch !== undefined ? { ifMatch } : {},
    );
    return { position: result.position, revision: result.revision };
  }
}
