import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { type InstallationDoc, type IntegrationDoc } from './integration-read-models';

export const integrationPath = (name: string) => `/integrations/${encodeURIComponent(name)}`;
export const integrationAssetPath = (name: string, key: string) => `${integrationPath(name)}/assets/${key}`;
export const installationPath = (name: string, installationId: string) =>
  `${integrationPath(name)}/installations/${installationId}`;

/**
 * An integration in the spec's shape (0.137.0) with the seed's `permissions.install`: whether the caller can install
 * it somewhere (an admin of some organization; for a private one, of the owner). Images are URLs where the
 * service serves them; the script is not shown (only its hash is kept) and secrets never are.
 */
export function presentIntegration(
  doc: IntegrationDoc,
  owner: Record<string, unknown>,
  role: RoleOrGuest | undefined,
  administersAny: boolean,
  urls: PublicUrls,
) {
  const admin = atLeast(role ?? null, 'admin');
  const asset = (key: string) => urls.api + integrationAssetPath(doc.name, key);
  return {
    object: 'integration' as const,
    name: doc.name,
    version: doc.version,
    title: doc.title,
    description: doc.description,
    ...(doc.summary !== undefined ? { summary: doc.summary } : {}),
    previewImages: doc.previewImages.map((image) => asset(image.key)),
    visibility: doc.visibility,
    target: doc.target,
    verified: false,
    scopes: doc.scopes,
    categories: doc.categories,
    blocks: doc.blocks,
    contentSources: doc.contentSources,
    configurations: doc.configurations,
    externalLinks: doc.externalLinks,
    ...(doc.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: doc.contentSecurityPolicy } : {}),
    owner,
    permissions: { admin, install: doc.visibility === 'private' ? admin : administersAny },
    urls: {
      location: urls.api + integrationPath(doc.name),
      ...(doc.icon ? { icon: asset(doc.icon.key) } : {}),
      app: `${urls.app}/integrations/${encodeURIComponent(doc.name)}`,
      assets: `${urls.api}${integrationPath(doc.name)}/assets`,
      publicEndpoint: `${urls.api}${integrationPath(doc.name)}/public`,
    },
  };
}

/** An installation in the spec's shape, with the seed's `object`. `spaces`: see the installations query. */
export function presentInstallation(doc: InstallationDoc, spaces: number, urls: PublicUrls) {
  return {
    object: 'integration-installation' as const,
    id: doc.id,
    status: 'active' as const,
    space_selection: doc.space_selection,
    site_selection: doc.site_selection,
    spaces,
    configuration: doc.configuration,
    externalIds: doc.externalIds,
    target: { organization: doc.organizationId },
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    urls: {
      location: urls.api + installationPath(doc.integration, doc.id),
      app: `${urls.app}/o/${doc.organizationId}/integrations/${encodeURIComponent(doc.integration)}`,
      publicEndpoint: `${urls.api}${installationPath(doc.integration, doc.id)}/public`,
    },
  };
}
