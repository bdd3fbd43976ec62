import { type Doc, type Projection, type RecordedEvent } from '@app/kernel';
import { type IntegrationEvent, type IntegrationPublication } from '../domain';
import { blockDomainsOf, installationsProjection, integrationsProjection } from './integrations.projection';

/** Runs events through a projection the way the runner does (by `idOf`), and returns the documents it keeps. */
function project<D extends Doc>(projection: Projection<D>, events: IntegrationEvent[]) {
  const docs = new Map<string, D>();
  events.forEach((event, index) => {
    if (!projection.handles.includes(event.type)) return;
    const recorded = { ...event, revision: index, position: String(index) } as unknown as RecordedEvent;
    const id = projection.idOf(recorded);
    if (id === null) return;
    const next = projection.evolve(docs.get(id) ?? null, recorded);
    if (next) docs.set(id, next);
    else docs.delete(id);
  });
  return docs;
}

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const name = 'acme';
const org = 'org-1';

const publication = (changes: Partial<IntegrationPublication> = {}): IntegrationPublication => ({
  title: 'Acme',
  description: 'd',
  previewImages: [],
  visibility: 'public',
  target: 'all',
  scopes: [],
  categories: [],
  blocks: [],
  contentSources: [],
  externalLinks: [],
  configurations: {},
  scriptHash: 'a'.repeat(64),
  runtime: 'v1',
  ...changes,
});
const published = (version: number, at: string, changes: Partial<IntegrationPublication> = {}): IntegrationEvent => ({
  type: 'IntegrationPublished',
  data: {
    name,
    organizationId: org,
    version,
    publication: publication(changes),
    secrets: { sealed: 'x', count: 1 },
    publishedAt: at,
  },
});

describe('integration projections', () => {
  it('keeps the current version with its filter fields, the stream revision and no secrets; unpublishing removes it', () => {
    const blocks = [{ id: 'b', title: 'Block', urlUnfurl: ['https://Docs.Example.org/a', 'not a url'] }];
    const docs = project(integrationsProjection, [
      published(1, T0),
      published(2, T1, { blocks, contentSources: [{ id: 's', title: 'Src', configuration: { componentId: 'c' } }] }),
    ]);
    expect(docs.get(name)).toEqual({
      ...publication({ blocks, contentSources: [{ id: 's', title: 'Src', configuration: { componentId: 'c' } }] }),
      id: name,
      name,
      organizationId: org,
      version: 2,
      hasBlocks: true,
      hasContentSources: true,
      blockDomains: ['docs.example.org', 'example.org', 'org'],
      publishedAt: T0,
      updatedAt: T1,
      revision: 1,
    });
    expect(JSON.stringify(docs.get(name))).not.toContain('sealed');
    const installed = project(integrationsProjection, [
      published(1, T0),
      { type: 'IntegrationInstalled', data: { name, installationId: 'i-1', organizationId: org, installedAt: T1 } },
    ]);
    expect(installed.get(name)).toMatchObject({ version: 1, revision: 1, updatedAt: T0 });
    const gone = project(integrationsProjection, [
      published(1, T0),
      { type: 'IntegrationUnpublished', data: { name, organizationId: org, unpublishedAt: T1 } },
    ]);
    expect(gone.size).toBe(0);
  });

  it('keeps one document per installation, changed in place and removed when it ends', () => {
    const installed = (installationId: string): IntegrationEvent => ({
      type: 'IntegrationInstalled',
      data: { name, installationId, organizationId: org, installedAt: T0 },
    });
    const docs = project(installationsProjection, [
      published(1, T0),
      installed('i-1'),
      installed('i-2'),
      {
        type: 'IntegrationInstallationUpdated',
        data: {
          name,
          installationId: 'i-1',
          organizationId: org,
          changes: { externalIds: ['e'], site_selection: 'selected' },
          updatedAt: T1,
        },
      },
      {
        type: 'IntegrationUninstalled',
        data: { name, installationId: 'i-2', organizationId: org, reason: 'unpublished', uninstalledAt: T1 },
      },
    ]);
    expect([...docs.values()]).toEqual([
      {
        id: 'i-1',
        integration: name,
        organizationId: org,
        configuration: {},
        externalIds: ['e'],
        space_selection: 'all',
        site_selection: 'selected',
        createdAt: T0,
        updatedAt: T1,
        revision: 3,
      },
    ]);
  });

  it('lists each host a block unfurls and every domain above it once', () => {
    expect(
      blockDomainsOf([
        { id: 'a', title: 'A', urlUnfurl: ['https://a.b.example.com/x', 'https://example.com'] },
        { id: 'b', title: 'B' },
      ]),
    ).toEqual(['a.b.example.com', 'b.example.com', 'example.com', 'com']);
  });
});
