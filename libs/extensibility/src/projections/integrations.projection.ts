import { type Projection } from '@app/kernel';
import { INSTALLATION_EVENTS, INTEGRATION_EVENTS, type IntegrationBlock, type IntegrationEvent } from '../domain';
import {
  INTEGRATIONS,
  INTEGRATION_INSTALLATIONS,
  type InstallationDoc,
  type IntegrationDoc,
} from '../application/integration-read-models';

/** Each host a block unfurls and every domain above it (`docs.example.com` → also `example.com`, `com`), lower case. */
export function blockDomainsOf(blocks: readonly IntegrationBlock[]): string[] {
  const domains = new Set<string>();
  for (const url of blocks.flatMap((block) => block.urlUnfurl ?? [])) {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      continue;
    }
    const labels = host.split('.');
    for (let i = 0; i < labels.length; i++) domains.add(labels.slice(i).join('.'));
  }
  return [...domains];
}

function evolveIntegration(doc: IntegrationDoc | null, event: IntegrationEvent, revision: number) {
  switch (event.type) {
    case 'IntegrationPublished': {
      const { name, organizationId, version, publication, publishedAt } = event.data;
      return {
        ...publication,
        id: name,
        name,
        organizationId,
        version,
        hasBlocks: publication.blocks.length > 0,
        hasContentSources: publication.contentSources.length > 0,
        blockDomains: blockDomainsOf(publication.blocks),
        publishedAt: doc?.publishedAt ?? publishedAt,
        updatedAt: publishedAt,
        revision,
      } satisfies IntegrationDoc;
    }
    case 'IntegrationUnpublished':
      return null;
    default:
      // Installations share the stream: the document follows its revision, which is the integration's ETag.
      return doc ? { ...doc, revision } : null;
  }
}

/** Published integrations; an unpublished one leaves the read model. */
export const integrationsProjection: Projection<IntegrationDoc> = {
  name: INTEGRATIONS,
  version: 1,
  collection: INTEGRATIONS,
  indexes: [{ fields: [['name', 1]] }, { fields: [['organizationId', 1]] }],
  handles: [...INTEGRATION_EVENTS, ...INSTALLATION_EVENTS],
  idOf: (event) => String(event.data.name),
  evolve: (doc, event) => evolveIntegration(doc, event as unknown as IntegrationEvent, event.revision),
};

function evolveInstallation(doc: InstallationDoc | null, event: IntegrationEvent, revision: number) {
  switch (event.type) {
    case 'IntegrationInstalled': {
      const { name, installationId, organizationId, installedAt } = event.data;
      return {
        id: installationId,
        integration: name,
        organizationId,
        configuration: {},
        externalIds: [],
        space_selection: 'all',
        site_selection: 'all',
        createdAt: installedAt,
        updatedAt: installedAt,
        revision,
      } satisfies InstallationDoc;
    }
    case 'IntegrationInstallationUpdated': {
      if (!doc) return null;
      return { ...doc, ...event.data.changes, updatedAt: event.data.updatedAt, revision };
    }
    case 'IntegrationUninstalled':
      return null;
    default:
      return doc;
  }
}

/** Installations in force, each its own document; uninstalling (or unpublishing the integration) removes it. */
export const installationsProjection: Projection<InstallationDoc> = {
  name: INTEGRATION_INSTALLATIONS,
  version: 1,
  collection: INTEGRATION_INSTALLATIONS,
  indexes: [
    {
      fields: [
        ['integration', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: INSTALLATION_EVENTS,
  idOf: (event) => String(event.data.installationId),
  evolve: (doc, event) => evolveInstallation(doc, event as unknown as IntegrationEvent, event.revision),
};
