import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';
import { checkLength } from './text';

/**
 * One stream per integration name: the name is global, so the stream is what makes it belong to one organization.
 * Installations live in the same stream, so unpublishing ends them in the same append.
 */
export const integrationStream = (name: string) => `integration-${name}`;

export const INTEGRATION_NAME = { pattern: /^[a-zA-Z0-9-_.]+$/, max: 100 };
export const INTEGRATION_LIMITS = {
  title: { min: 2, max: 30 },
  description: 100,
  summary: 2048,
  previewImages: 3,
  externalLinks: 5,
  secrets: 20,
  externalIds: 5,
  partTitle: { min: 2, max: 40 },
  partDescription: 150,
  propertyTitle: 30,
  propertyDescription: 100,
  /** Lengths the spec leaves open, bounded so one publication stays small. */
  text: 2048,
  urls: 20,
  parts: 50,
  properties: 50,
};

export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
/** IntegrationScope of spec 0.137.0. */
export const INTEGRATION_SCOPES = [
  'space:views:read', 'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write',
  'space:script:inject', 'space:script:cookies', 'space:git:sync', 'space:visitor:auth', 'site:metadata:read',
  'site:views:read', 'site:script:inject', 'site:script:cookies', 'site:visitor:auth', 'site:adaptive:read',
  'site:adaptive:write', 'site:ai:ask', 'openapi:read', 'openapi:write', 'conversations:ingest',
] as const; // prettier-ignore
/** IntegrationCategory of spec 0.137.0. */
export const INTEGRATION_CATEGORIES = [
  'analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other',
] as const; // prettier-ignore
export const INSTALLATION_SELECTIONS = ['all', 'selected'] as const;
/** The directives a `contentSecurityPolicy` object may set (spec IntegrationContentSecurityPolicy). */
export const CSP_DIRECTIVES = [
  'base-uri', 'block-all-mixed-content', 'child-src', 'connect-src', 'default-src', 'font-src', 'form-action',
  'frame-ancestors', 'frame-src', 'img-src', 'manifest-src', 'media-src', 'navigate-to', 'object-src',
  'plugin-types', 'prefetch-src', 'referrer', 'report-to', 'report-uri', 'require-sri-for',
  'require-trusted-types-for', 'sandbox', 'script-src', 'script-src-attr', 'script-src-elem', 'style-src',
  'style-src-attr', 'style-src-elem', 'trusted-types', 'upgrade-insecure-requests', 'worker-src',
] as const; // prettier-ignore

export type IntegrationVisibility = (typeof INTEGRATION_VISIBILITIES)[number];
export type IntegrationTarget = (typeof INTEGRATION_TARGETS)[number];
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];
export type IntegrationCategory = (typeof INTEGRATION_CATEGORIES)[number];
export type InstallationSelection = (typeof INSTALLATION_SELECTIONS)[number];

/** An image kept in the blob store: its key (SHA-256 of the bytes) and the type its bytes showed. */
export interface IntegrationAsset {
  key: string;
  contentType: 'image/png' | 'image/jpeg' | 'image/svg+xml';
}

export interface IntegrationBlock {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  urlUnfurl?: string[];
  markdown?: { codeblock: string; body: string };
}

export interface IntegrationContentSource {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  configuration: { componentId: string };
}

export type ConfigurationProperty = { title?: string; description?: string } & (
  | { type: 'string'; default?: string; completion_url?: string; enum?: string[] }
  | { type: 'number'; default?: number }
  | { type: 'boolean'; default?: boolean }
  | { type: 'button'; callback_url: string; button_text: string }
);

/** Either a list of typed properties or a ContentKit component that renders the configuration. */
export type IntegrationConfiguration =
  { properties: Record<string, ConfigurationProperty>; required?: string[] } | { componentId: string };

export interface IntegrationConfigurations {
  account?: IntegrationConfiguration;
  space?: IntegrationConfiguration;
  site?: IntegrationConfiguration;
}

/** What one publication says about an integration (everything but its name, owner and secrets). */
export interface IntegrationPublication {
  title: string;
  description: string;
  summary?: string;
  icon?: IntegrationAsset;
  previewImages: IntegrationAsset[];
  visibility: IntegrationVisibility;
  target: IntegrationTarget;
  scopes: IntegrationScope[];
  categories: IntegrationCategory[];
  blocks: IntegrationBlock[];
  contentSources: IntegrationContentSource[];
  externalLinks: { url: string; label: string }[];
  configurations: IntegrationConfigurations;
  /** SHA-256 (hex) of the script, whose text is in the blob store under this key. It is never run here. */
  scriptHash: string;
  contentSecurityPolicy?: string | Record<string, string>;
  runtime: 'v1' | 'v2';
}

/** Secrets as the service keeps them: sealed (encrypted) text the domain never opens, and their count. */
export interface SealedSecrets {
  sealed: string;
  count: number;
}

export type InstallationConfiguration = Record<string, string | number | boolean>;

type Cmd<Type extends string, Data> = Command<Type, { name: string } & Data>;

/** `organizationId` is the publishing organization, already resolved from an id or hostname. */
export type PublishIntegration = Cmd<
  'PublishIntegration',
  { organizationId: string; publication: IntegrationPublication; secrets?: SealedSecrets }
>;
export type UnpublishIntegration = Cmd<'UnpublishIntegration', { organizationId: string }>;
export type InstallIntegration = Cmd<'InstallIntegration', { installationId: string; organizationId: string }>;
export type UpdateInstallation = Cmd<
  'UpdateInstallation',
  {
    installationId: string;
    organizationId: string;
    configuration?: Record<string, unknown>;
    externalIds?: string[];
    space_selection?: InstallationSelection;
    site_selection?: InstallationSelection;
  }
>;
export type UninstallIntegration = Cmd<'UninstallIntegration', { installationId: string; organizationId: string }>;

export type IntegrationCommand =
  PublishIntegration | UnpublishIntegration | InstallIntegration | UpdateInstallation | UninstallIntegration;

export type IntegrationPublished = DomainEvent<
  'IntegrationPublished',
  {
    name: string;
    organizationId: string;
    version: number;
    publication: IntegrationPublication;
    /** Present when this publication set the secrets; absent ones keep those of the version before. */
    secrets?: SealedSecrets;
    publishedAt: string;
  }
>;
export type IntegrationUnpublished = DomainEvent<
  'IntegrationUnpublished',
  { name: string; organizationId: string; unpublishedAt: string }
>;
export type IntegrationInstalled = DomainEvent<
  'IntegrationInstalled',
  { name: string; installationId: string; organizationId: string; installedAt: string }
>;
export type IntegrationInstallationUpdated = DomainEvent<
  'IntegrationInstallationUpdated',
  {
    name: string;
    installationId: string;
    organizationId: string;
    changes: {
      configuration?: InstallationConfiguration;
      externalIds?: string[];
      space_selection?: InstallationSelection;
      site_selection?: InstallationSelection;
    };
    updatedAt: string;
  }
>;
/** `reason` is `unpublished` when the integration's owner unpublished it. */
export type IntegrationUninstalled = DomainEvent<
  'IntegrationUninstalled',
  {
    name: string;
    installationId: string;
    organizationId: string;
    reason: 'uninstalled' | 'unpublished';
    uninstalledAt: string;
  }
>;

export type IntegrationEvent =
  | IntegrationPublished
  | IntegrationUnpublished
  | IntegrationInstalled
  | IntegrationInstallationUpdated
  | IntegrationUninstalled;

export const INTEGRATION_EVENTS = ['IntegrationPublished', 'IntegrationUnpublished'] as const;
export const INSTALLATION_EVENTS = [
  'IntegrationInstalled',
  'IntegrationInstallationUpdated',
  'IntegrationUninstalled',
] as const;

export type IntegrationState =
  | { status: 'absent' }
  | {
      status: 'published';
      organizationId: string;
      version: number;
      visibility: IntegrationVisibility;
      account?: IntegrationConfiguration;
      /** Installation id → installing organization. */
      installations: Readonly<Record<string, string>>;
    }
  | { status: 'unpublished'; organizationId: string; version: number };

// ---- validation of a publication (pure; the handler runs it before it stores any image) ----

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkKeys(field: string, value: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw new ValidationFailed(`${field}.${unknown}: unknown field`);
}

function checkString(field: string, value: unknown, max: number, min = 0): asserts value is string {
  if (typeof value !== 'string') throw new ValidationFailed(`${field}: must be a string`);
  checkLength(field, value, max, min);
}

function checkOptionalString(field: string, value: unknown, max: number): void {
  if (value !== undefined) checkString(field, value, max);
}

function checkEnumList<T extends string>(field: string, values: readonly unknown[], allowed: readonly T[]): void {
  values.forEach((value, index) => {
    if (!(allowed as readonly unknown[]).includes(value)) {
      throw new ValidationFailed(`${field}[${index}]: must be one of ${allowed.join(', ')}`);
    }
  });
  const repeated = values.find((value, index) => values.indexOf(value) !== index);
  if (repeated !== undefined) throw new ValidationFailed(`${field}: "${String(repeated)}" appears more than once`);
}

function checkUrl(field: string, value: unknown): void {
  checkString(field, value, 2048, 1);
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value)) throw new ValidationFailed(`${field}: must be an http(s) URL`);
}

function checkIds(field: string, parts: readonly { id: string }[]): void {
  const ids = parts.map((part) => part.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new ValidationFailed(`${field}: id "${repeated}" appears more than once`);
}

function checkBlock(field: string, block: unknown): void {
  if (!isRecord(block)) throw new ValidationFailed(`${field}: must be an object`);
  checkKeys(field, block, ['id', 'title', 'description', 'icon', 'urlUnfurl', 'markdown']);
  checkString(`${field}.id`, block.id, 100, 1);
  checkString(`${field}.title`, block.title, INTEGRATION_LIMITS.partTitle.max, INTEGRATION_LIMITS.partTitle.min);
  checkOptionalString(`${field}.description`, block.description, INTEGRATION_LIMITS.partDescription);
  checkOptionalString(`${field}.icon`, block.icon, INTEGRATION_LIMITS.text);
  if (block.urlUnfurl !== undefined) {
    if (!Array.isArray(block.urlUnfurl) || block.urlUnfurl.length > INTEGRATION_LIMITS.urls) {
      throw new ValidationFailed(`${field}.urlUnfurl: must be a list of at most ${INTEGRATION_LIMITS.urls} URLs`);
    }
    block.urlUnfurl.forEach((url, index) => checkUrl(`${field}.urlUnfurl[${index}]`, url));
  }
  if (block.markdown !== undefined) {
    if (!isRecord(block.markdown)) throw new ValidationFailed(`${field}.markdown: must be an object`);
    checkKeys(`${field}.markdown`, block.markdown, ['codeblock', 'body']);
    checkString(`${field}.markdown.codeblock`, block.markdown.codeblock, 100, 1);
    checkString(`${field}.markdown.body`, block.markdown.body, INTEGRATION_LIMITS.text);
  }
}

function checkContentSource(field: string, source: unknown): void {
  if (!isRecord(source)) throw new ValidationFailed(`${field}: must be an object`);
  checkKeys(field, source, ['id', 'title', 'description', 'icon', 'configuration']);
  checkString(`${field}.id`, source.id, 100, 1);
  checkString(`${field}.title`, source.title, INTEGRATION_LIMITS.partTitle.max, INTEGRATION_LIMITS.partTitle.min);
  checkOptionalString(`${field}.description`, source.description, INTEGRATION_LIMITS.partDescription);
  checkOptionalString(`${field}.icon`, source.icon, INTEGRATION_LIMITS.text);
  if (!isRecord(source.configuration)) throw new ValidationFailed(`${field}.configuration: must be an object`);
  checkKeys(`${field}.configuration`, source.configuration, ['componentId']);
  checkString(`${field}.configuration.componentId`, source.configuration.componentId, 100, 1);
}

function checkProperty(field: string, property: unknown): void {
  if (!isRecord(property)) throw new ValidationFailed(`${field}: must be an object`);
  checkOptionalString(`${field}.title`, property.title, INTEGRATION_LIMITS.propertyTitle);
  checkOptionalString(`${field}.description`, property.description, INTEGRATION_LIMITS.propertyDescription);
  const common = ['type', 'title', 'description'];
  switch (property.type) {
    case 'string':
      checkKeys(field, property, [...common, 'default', 'completion_url', 'enum']);
      checkOptionalString(`${field}.default`, property.default, INTEGRATION_LIMITS.text);
      if (property.completion_url !== undefined) checkUrl(`${field}.completion_url`, property.completion_url);
      if (property.enum !== undefined) {
        if (!Array.isArray(property.enum) || property.enum.length === 0 || property.enum.length > 100) {
          throw new ValidationFailed(`${field}.enum: must be a list of 1 to 100 strings`);
        }
        property.enum.forEach((value, index) => checkString(`${field}.enum[${index}]`, value, 256));
      }
      return;
    case 'number':
      checkKeys(field, property, [...common, 'default']);
      if (property.default !== undefined && !Number.isFinite(property.default)) {
        throw new ValidationFailed(`${field}.default: must be a number`);
      }
      return;
    case 'boolean':
      checkKeys(field, property, [...common, 'default']);
      if (property.default !== undefined && typeof property.default !== 'boolean') {
        throw new ValidationFailed(`${field}.default: must be a boolean`);
      }
      return;
    case 'button':
      checkKeys(field, property, [...common, 'callback_url', 'button_text']);
      checkUrl(`${field}.callback_url`, property.callback_url);
      checkString(`${field}.button_text`, property.button_text, 100, 1);
      return;
    default:
      throw new ValidationFailed(`${field}.type: must be one of string, number, boolean, button`);
  }
}

function checkConfiguration(field: string, configuration: unknown): void {
  if (!isRecord(configuration)) throw new ValidationFailed(`${field}: must be an object`);
  if ('componentId' in configuration) {
    checkKeys(field, configuration, ['componentId']);
    checkString(`${field}.componentId`, configuration.componentId, 100, 1);
    return;
  }
  checkKeys(field, configuration, ['properties', 'required']);
  const { properties, required } = configuration;
  if (!isRecord(properties)) throw new ValidationFailed(`${field}.properties: must be an object`);
  const names = Object.keys(properties);
  if (names.length > INTEGRATION_LIMITS.properties) {
    throw new ValidationFailed(`${field}.properties: at most ${INTEGRATION_LIMITS.properties} properties`);
  }
  for (const name of names) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      throw new ValidationFailed(`${field}.properties: "${name.slice(0, 64)}" is not a valid property name`);
    }
    checkProperty(`${field}.properties.${name}`, properties[name]);
  }
  if (required !== undefined) {
    if (!Array.isArray(required)) throw new ValidationFailed(`${field}.required: must be a list of property names`);
    required.forEach((one, index) => {
      if (typeof one !== 'string' || !names.includes(one)) {
        throw new ValidationFailed(`${field}.required[${index}]: must name one of the properties`);
      }
    });
  }
}

function checkContentSecurityPolicy(value: unknown): void {
  if (value === undefined) return;
  if (typeof value === 'string') return checkLength('contentSecurityPolicy', value, INTEGRATION_LIMITS.text);
  if (!isRecord(value)) throw new ValidationFailed('contentSecurityPolicy: must be a string or an object');
  checkKeys('contentSecurityPolicy', value, CSP_DIRECTIVES);
  for (const [directive, text] of Object.entries(value)) {
    checkString(`contentSecurityPolicy.${directive}`, text, INTEGRATION_LIMITS.text);
  }
}

/** Checks an integration name against the seed's pattern and length. */
export function checkIntegrationName(name: string): void {
  if (name.length === 0 || name.length > INTEGRATION_NAME.max || !INTEGRATION_NAME.pattern.test(name)) {
    throw new ValidationFailed(
      `integrationName: must be 1 to ${INTEGRATION_NAME.max} letters, digits, dashes, underscores or dots`,
    );
  }
}

/**
 * Every limit of a publication: the seed's (title, description, summary, previewImages, externalLinks), the
 * spec's (scopes, categories, visibility, target, parts of blocks, content sources and configurations), and bounds
 * on what both leave open. The message names the field.
 */
export function checkPublication(publication: IntegrationPublication, secretCount = 0): void {
  const limits = INTEGRATION_LIMITS;
  checkString('title', publication.title, limits.title.max, limits.title.min);
  if (publication.title.trim().length === 0) throw new ValidationFailed('title: must not be blank');
  checkString('description', publication.description, limits.description);
  checkOptionalString('summary', publication.summary, limits.summary);
  if (publication.previewImages.length > limits.previewImages) {
    throw new ValidationFailed(`previewImages: at most ${limits.previewImages} images`);
  }
  if (!(INTEGRATION_VISIBILITIES as readonly string[]).includes(publication.visibility)) {
    throw new ValidationFailed(`visibility: must be one of ${INTEGRATION_VISIBILITIES.join(', ')}`);
  }
  if (!(INTEGRATION_TARGETS as readonly string[]).includes(publication.target)) {
    throw new ValidationFailed(`target: must be one of ${INTEGRATION_TARGETS.join(', ')}`);
  }
  if (publication.runtime !== 'v1' && publication.runtime !== 'v2') {
    throw new ValidationFailed('runtime: must be v1 or v2');
  }
  checkEnumList('scopes', publication.scopes, INTEGRATION_SCOPES);
  checkEnumList('categories', publication.categories, INTEGRATION_CATEGORIES);
  if (publication.blocks.length > limits.parts) throw new ValidationFailed(`blocks: at most ${limits.parts} blocks`);
  publication.blocks.forEach((block, index) => checkBlock(`blocks[${index}]`, block));
  checkIds('blocks', publication.blocks);
  if (publication.contentSources.length > limits.parts) {
    throw new ValidationFailed(`contentSources: at most ${limits.parts} content sources`);
  }
  publication.contentSources.forEach((source, index) => checkContentSource(`contentSources[${index}]`, source));
  checkIds('contentSources', publication.contentSources);
  if (publication.externalLinks.length > limits.externalLinks) {
    throw new ValidationFailed(`externalLinks: at most ${limits.externalLinks} links`);
  }
  publication.externalLinks.forEach((link, index) => {
    const field = `externalLinks[${index}]`;
    if (!isRecord(link)) throw new ValidationFailed(`${field}: must be an object`);
    checkKeys(field, link, ['url', 'label']);
    checkUrl(`${field}.url`, link.url);
    checkString(`${field}.label`, link.label, 100, 1);
  });
  if (!isRecord(publication.configurations)) throw new ValidationFailed('configurations: must be an object');
  checkKeys('configurations', publication.configurations, ['account', 'space', 'site']);
  for (const [target, configuration] of Object.entries(publication.configurations)) {
    checkConfiguration(`configurations.${target}`, configuration);
  }
  checkContentSecurityPolicy(publication.contentSecurityPolicy);
  if (secretCount > limits.secrets) throw new ValidationFailed(`secrets: at most ${limits.secrets} secrets`);
}

/**
 * An installation's configuration against the integration's account configuration: each property declared, of
 * its type (and one of its `enum` when it has one), every `required` one present. A ContentKit configuration
 * (`componentId`) declares no properties, so it takes any flat object.
 */
export function checkInstallationConfiguration(
  configuration: Record<string, unknown>,
  account: IntegrationConfiguration | undefined,
): InstallationConfiguration {
  const checked: InstallationConfiguration = {};
  const entries = Object.entries(configuration);
  if (entries.length > INTEGRATION_LIMITS.properties) {
    throw new ValidationFailed(`configuration: at most ${INTEGRATION_LIMITS.properties} properties`);
  }
  const properties = account && 'properties' in account ? account.properties : undefined;
  for (const [name, value] of entries) {
    const field = `configuration.${name.slice(0, 64)}`;
    const property = properties ? properties[name] : undefined;
    if (properties && !property) throw new ValidationFailed(`${field}: not a property of this integration`);
    if (!properties && account === undefined) {
      throw new ValidationFailed(`${field}: this integration declares no account configuration`);
    }
    const type = property?.type === 'button' ? 'button' : (property?.type ?? typeof value);
    if (type === 'button') throw new ValidationFailed(`${field}: a button holds no value`);
    if (type === 'string') {
      checkString(field, value, INTEGRATION_LIMITS.text);
      if (property?.type === 'string' && property.enum && !property.enum.includes(value)) {
        throw new ValidationFailed(`${field}: must be one of ${property.enum.join(', ')}`);
      }
    } else if (type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw new ValidationFailed(`${field}: must be a number`);
    } else if (type === 'boolean') {
      if (typeof value !== 'boolean') throw new ValidationFailed(`${field}: must be a boolean`);
    } else {
      throw new ValidationFailed(`${field}: must be a string, a number or a boolean`);
    }
    checked[name] = value as string | number | boolean;
  }
  if (account && 'properties' in account) {
    const absent = (account.required ?? []).find((name) => checked[name] === undefined);
    if (absent !== undefined) throw new ValidationFailed(`configuration.${absent}: is required`);
  }
  return checked;
}

// ---- the decider ----

function decide(command: IntegrationCommand, state: IntegrationState): IntegrationEvent[] {
  const { name } = command.data;
  const now = command.metadata.now;
  const missing = () => new NotFound(`Integration ${name} not found`);
  switch (command.type) {
    case 'PublishIntegration': {
      const { organizationId, publication, secrets } = command.data;
      checkIntegrationName(name);
      checkPublication(publication, secrets?.count ?? 0);
      if (state.status !== 'absent' && state.organizationId !== organizationId) {
        throw new IllegalState(`The name ${name} belongs to another organization`);
      }
      const version = state.status === 'absent' ? 1 : state.version + 1;
      return [
        {
          type: 'IntegrationPublished',
          data: { name, organizationId, version, publication, ...(secrets ? { secrets } : {}), publishedAt: now },
        },
      ];
    }
    case 'UnpublishIntegration': {
      if (state.status === 'absent' || state.organizationId !== command.data.organizationId) throw missing();
      if (state.status === 'unpublished') return [];
      const ended: IntegrationEvent[] = Object.entries(state.installations).map(([installationId, installer]) => ({
        type: 'IntegrationUninstalled',
        data: { name, installationId, organizationId: installer, reason: 'unpublished', uninstalledAt: now },
      }));
      return [
        ...ended,
        { type: 'IntegrationUnpublished', data: { name, organizationId: state.organizationId, unpublishedAt: now } },
      ];
    }
    case 'InstallIntegration': {
      const { installationId, organizationId } = command.data;
      if (state.status !== 'published') throw missing();
      if (state.visibility === 'private' && state.organizationId !== organizationId) throw missing();
      if (Object.values(state.installations).includes(organizationId)) {
        throw new IllegalState(`Integration ${name} is already installed in organization ${organizationId}`);
      }
      if (state.installations[installationId]) throw new IllegalState(`Installation ${installationId} exists`);
      return [{ type: 'IntegrationInstalled', data: { name, installationId, organizationId, installedAt: now } }];
    }
    case 'UpdateInstallation': {
      const { installationId, organizationId } = command.data;
      if (state.status !== 'published' || state.installations[installationId] !== organizationId) {
        throw new NotFound(`Installation ${installationId} not found`);
      }
      const changes: IntegrationInstallationUpdated['data']['changes'] = {};
      if (command.data.configuration !== undefined) {
        changes.configuration = checkInstallationConfiguration(command.data.configuration, state.account);
      }
      if (command.data.externalIds !== undefined) {
        const ids = command.data.externalIds;
        if (ids.length > INTEGRATION_LIMITS.externalIds) {
          throw new ValidationFailed(`externalIds: at most ${INTEGRATION_LIMITS.externalIds} ids`);
        }
        ids.forEach((id, index) => checkString(`externalIds[${index}]`, id, 256, 1));
        changes.externalIds = ids;
      }
      for (const key of ['space_selection', 'site_selection'] as const) {
        const value = command.data[key];
        if (value === undefined) continue;
        if (!(INSTALLATION_SELECTIONS as readonly string[]).includes(value)) {
          throw new ValidationFailed(`${key}: must be all or selected`);
        }
        changes[key] = value;
      }
      return [
        {
          type: 'IntegrationInstallationUpdated',
          data: { name, installationId, organizationId, changes, updatedAt: now },
        },
      ];
    }
    case 'UninstallIntegration': {
      const { installationId, organizationId } = command.data;
      if (state.status !== 'published' || state.installations[installationId] !== organizationId) return [];
      return [
        {
          type: 'IntegrationUninstalled',
          data: { name, installationId, organizationId, reason: 'uninstalled', uninstalledAt: now },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: IntegrationState, event: IntegrationEvent): IntegrationState {
  switch (event.type) {
    case 'IntegrationPublished': {
      const { organizationId, version, publication } = event.data;
      return {
        status: 'published',
        organizationId,
        version,
        visibility: publication.visibility,
        ...(publication.configurations.account ? { account: publication.configurations.account } : {}),
        installations: state.status === 'published' ? state.installations : {},
      };
    }
    case 'IntegrationUnpublished':
      return state.status === 'published'
        ? { status: 'unpublished', organizationId: state.organizationId, version: state.version }
        : state;
    case 'IntegrationInstalled':
      if (state.status !== 'published') return state;
      return {
        ...state,
        installations: { ...state.installations, [event.data.installationId]: event.data.organizationId },
      };
    case 'IntegrationInstallationUpdated':
      return state;
    case 'IntegrationUninstalled': {
      if (state.status !== 'published') return state;
      const installations = { ...state.installations };
      delete installations[event.data.installationId];
      return { ...state, installations };
    }
    default:
      return assertNever(event);
  }
}

export const integrationDecider: Decider<IntegrationState, IntegrationCommand, IntegrationEvent> = {
  initialState: () => ({ status: 'absent' }),
  decide,
  evolve,
};
