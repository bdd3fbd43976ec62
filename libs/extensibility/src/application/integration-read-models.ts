import { type InstallationConfiguration, type InstallationSelection, type IntegrationPublication } from '../domain';

/** Read-model collections of integrations (written by ../projections/integrations.projection.ts). */
export const INTEGRATIONS = 'integrations';
export const INTEGRATION_INSTALLATIONS = 'integration_installations';

/**
 * A published integration (id: its name). Secrets are not here: they stay sealed in the event store. The
 * `has*` flags and `blockDomains` (every host of the blocks' `urlUnfurl` and each domain above it) serve the
 * list filters.
 */
export interface IntegrationDoc extends IntegrationPublication {
  id: string;
  name: string;
  organizationId: string;
  version: number;
  hasBlocks: boolean;
  hasContentSources: boolean;
  blockDomains: string[];
  publishedAt: string;
  updatedAt: string;
  /** Revision of the integration's stream (the ETag). */
  revision: number;
  [key: string]: unknown;
}

/** One installation of an integration in an organization (id: the installation's id). */
export interface InstallationDoc {
  id: string;
  integration: string;
  organizationId: string;
  configuration: InstallationConfiguration;
  externalIds: string[];
  space_selection: InstallationSelection;
  site_selection: InstallationSelection;
  createdAt: string;
  updatedAt: string;
  revision: number;
  [key: string]: unknown;
}

/** What a mutating endpoint of integrations waits for before it answers. */
export const INTEGRATION_READ_MODELS = [INTEGRATIONS, INTEGRATION_INSTALLATIONS];
