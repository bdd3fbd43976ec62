import { at, given } from '@app/kernel/testing';
import {
  type IntegrationCommand,
  type IntegrationEvent,
  type IntegrationPublication,
  checkInstallationConfiguration,
  integrationDecider,
} from './integration.decider';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const name = 'acme-analytics';
const owner = 'org-owner';
const other = 'org-other';
const hash = 'a'.repeat(64);

const publication = (changes: Partial<IntegrationPublication> = {}): IntegrationPublication => ({
  title: 'Acme Analytics',
  description: 'Counts page views',
  previewImages: [],
  visibility: 'public',
  target: 'all',
  scopes: ['space:views:read'],
  categories: ['analytics'],
  blocks: [],
  contentSources: [],
  externalLinks: [],
  configurations: {
    account: {
      properties: {
        apiKey: { type: 'string', title: 'API key' },
        region: { type: 'string', enum: ['eu', 'us'] },
        sampleRate: { type: 'number' },
        enabled: { type: 'boolean' },
      },
      required: ['apiKey'],
    },
  },
  scriptHash: hash,
  runtime: 'v1',
  ...changes,
});

const published = (version = 1, organizationId = owner, changes: Partial<IntegrationPublication> = {}) =>
  ({
    type: 'IntegrationPublished',
    data: { name, organizationId, version, publication: publication(changes), publishedAt: T0 },
  }) as IntegrationEvent;
const installed = (installationId: string, organizationId: string): IntegrationEvent => ({
  type: 'IntegrationInstalled',
  data: { name, installationId, organizationId, installedAt: T0 },
});

const command = (type: IntegrationCommand['type'], data: Record<string, unknown>) =>
  ({ type, data: { name, ...data }, metadata: at(T1) }) as IntegrationCommand;
const publish = (changes: Partial<IntegrationPublication> = {}, organizationId = owner, extra = {}) =>
  command('PublishIntegration', { organizationId, publication: publication(changes), ...extra });

describe('integration decider', () => {
  describe('PublishIntegration', () => {
    it('publishes version 1 of a free name', () => {
      given(integrationDecider)
        .when(publish())
        .then([
          {
            type: 'IntegrationPublished',
            data: { name, organizationId: owner, version: 1, publication: publication(), publishedAt: T1 },
          },
        ]);
    });

    it('publishes the next version for the owner, with sealed secrets when given', () => {
      const secrets = { sealed: 'v1.x.y.z', count: 1 };
      given(integrationDecider, [published(1), published(2)])
        .when(publish({ title: 'Acme 2' }, owner, { secrets }))
        .then([
          {
            type: 'IntegrationPublished',
            data: {
              name,
              organizationId: owner,
              version: 3,
              publication: publication({ title: 'Acme 2' }),
              secrets,
              publishedAt: T1,
            },
          },
        ]);
    });

    it('refuses a name another organization owns, also after it unpublished it', () => {
      given(integrationDecider, [published(1)])
        .when(publish({}, other))
        .thenThrows('illegal-state', /another organization/);
      given(integrationDecider, [
        published(1),
        { type: 'IntegrationUnpublished', data: { name, organizationId: owner, unpublishedAt: T0 } },
      ])
        .when(publish({}, other))
        .thenThrows('illegal-state', /another organization/);
    });

    it('lets the owner publish again after unpublishing, continuing the versions', () => {
      given(integrationDecider, [
        published(4),
        { type: 'IntegrationUnpublished', data: { name, organizationId: owner, unpublishedAt: T0 } },
      ])
        .when(publish())
        .then([
          {
            type: 'IntegrationPublished',
            data: { name, organizationId: owner, version: 5, publication: publication(), publishedAt: T1 },
          },
        ]);
    });

    it('wants a name of at most 100 letters, digits, dashes, underscores or dots', () => {
      for (const bad of ['has space', 'slash/name', 'é', '', 'x'.repeat(101)]) {
        given(integrationDecider)
          .when({ ...publish(), data: { ...publish().data, name: bad } } as IntegrationCommand)
          .thenThrows('validation', /^integrationName/);
      }
      given(integrationDecider)
        .when({ ...publish(), data: { ...publish().data, name: 'A.b_c-9' } } as IntegrationCommand)
        .then([expect.objectContaining({ type: 'IntegrationPublished' }) as never]);
    });

    it.each([
      ['title', { title: 'x' }, /^title/],
      ['title', { title: 'x'.repeat(31) }, /^title/],
      ['description', { description: 'x'.repeat(101) }, /^description/],
      ['summary', { summary: 'x'.repeat(2049) }, /^summary/],
      ['previewImages', { previewImages: Array(4).fill({ key: hash, contentType: 'image/png' }) }, /^previewImages/],
      ['externalLinks', { externalLinks: Array(6).fill({ url: 'https://a.example', label: 'A' }) }, /^externalLinks/],
      ['externalLinks', { externalLinks: [{ url: 'javascript:alert(1)', label: 'A' }] }, /^externalLinks\[0\]\.url/],
      ['visibility', { visibility: 'secret' }, /^visibility/],
      ['target', { target: 'everything' }, /^target/],
      ['scopes', { scopes: ['space:views:read', 'root'] }, /^scopes\[1\]/],
      ['scopes', { scopes: ['space:views:read', 'space:views:read'] }, /^scopes: .*more than once/],
      ['categories', { categories: ['games'] }, /^categories\[0\]/],
      ['blocks', { blocks: [{ id: 'b', title: 'B' }] }, /^blocks\[0\]\.title/],
      ['blocks', { blocks: [{ id: 'b', title: 'Block', extra: 1 }] }, /^blocks\[0\]\.extra: unknown field/],
      ['blocks', { blocks: [{ id: 'b', title: 'Block', urlUnfurl: ['ftp://x'] }] }, /^blocks\[0\]\.urlUnfurl\[0\]/],
      ['contentSources', { contentSources: [{ id: 's', title: 'Source' }] }, /^contentSources\[0\]\.configuration/],
      ['configurations', { configurations: { org: {} } }, /^configurations\.org: unknown field/],
      [
        'configurations',
        { configurations: { space: { properties: { a: { type: 'date' } } } } },
        /^configurations\.space\.properties\.a\.type/,
      ],
      [
        'configurations',
        { configurations: { account: { properties: {}, required: ['missing'] } } },
        /^configurations\.account\.required\[0\]/,
      ],
      ['contentSecurityPolicy', { contentSecurityPolicy: { 'evil-src': 'x' } }, /^contentSecurityPolicy\.evil-src/],
    ])('refuses a bad %s, naming the field', (_field, changes, message) => {
      given(integrationDecider)
        .when(publish(changes as Partial<IntegrationPublication>))
        .thenThrows('validation', message);
    });

    it('refuses more than 20 secrets', () => {
      given(integrationDecider)
        .when(publish({}, owner, { secrets: { sealed: 's', count: 21 } }))
        .thenThrows('validation', /^secrets/);
    });
  });

  describe('UnpublishIntegration', () => {
    it('ends every installation, then unpublishes', () => {
      given(integrationDecider, [published(), installed('i-1', owner), installed('i-2', other)])
        .when(command('UnpublishIntegration', { organizationId: owner }))
        .then([
          {
            type: 'IntegrationUninstalled',
            data: { name, installationId: 'i-1', organizationId: owner, reason: 'unpublished', uninstalledAt: T1 },
          },
          {
            type: 'IntegrationUninstalled',
            data: { name, installationId: 'i-2', organizationId: other, reason: 'unpublished', uninstalledAt: T1 },
          },
          { type: 'IntegrationUnpublished', data: { name, organizationId: owner, unpublishedAt: T1 } },
        ]);
    });

    it('changes nothing the second time, and is not found for another organization', () => {
      const gone: IntegrationEvent = {
        type: 'IntegrationUnpublished',
        data: { name, organizationId: owner, unpublishedAt: T0 },
      };
      given(integrationDecider, [published(), gone])
        .when(command('UnpublishIntegration', { organizationId: owner }))
        .thenNothing();
      given(integrationDecider, [published()])
        .when(command('UnpublishIntegration', { organizationId: other }))
        .thenThrows('not-found');
    });
  });

  describe('installations', () => {
    it('installs once per organization', () => {
      given(integrationDecider, [published()])
        .when(command('InstallIntegration', { installationId: 'i-1', organizationId: other }))
        .then([
          {
            type: 'IntegrationInstalled',
            data: { name, installationId: 'i-1', organizationId: other, installedAt: T1 },
          },
        ]);
      given(integrationDecider, [published(), installed('i-1', other)])
        .when(command('InstallIntegration', { installationId: 'i-2', organizationId: other }))
        .thenThrows('illegal-state', /already installed/);
    });

    it('keeps a private integration to its owner, and an unpublished one to nobody', () => {
      given(integrationDecider, [published(1, owner, { visibility: 'private' })])
        .when(command('InstallIntegration', { installationId: 'i-1', organizationId: other }))
        .thenThrows('not-found');
      given(integrationDecider, [published(1, owner, { visibility: 'private' })])
        .when(command('InstallIntegration', { installationId: 'i-1', organizationId: owner }))
        .then([
          {
            type: 'IntegrationInstalled',
            data: { name, installationId: 'i-1', organizationId: owner, installedAt: T1 },
          },
        ]);
      given(integrationDecider, [
        published(),
        { type: 'IntegrationUnpublished', data: { name, organizationId: owner, unpublishedAt: T0 } },
      ])
        .when(command('InstallIntegration', { installationId: 'i-1', organizationId: other }))
        .thenThrows('not-found');
    });

    it('changes an installation with a configuration that fits the account properties', () => {
      given(integrationDecider, [published(), installed('i-1', other)])
        .when(
          command('UpdateInstallation', {
            installationId: 'i-1',
            organizationId: other,
            configuration: { apiKey: 'k', region: 'eu', sampleRate: 0.5, enabled: true },
            externalIds: ['ext-1'],
            space_selection: 'selected',
          }),
        )
        .then([
          {
            type: 'IntegrationInstallationUpdated',
            data: {
              name,
              installationId: 'i-1',
              organizationId: other,
              changes: {
                configuration: { apiKey: 'k', region: 'eu', sampleRate: 0.5, enabled: true },
                externalIds: ['ext-1'],
                space_selection: 'selected',
              },
              updatedAt: T1,
            },
          },
        ]);
    });

    it.each([
      ['an undeclared property', { apiKey: 'k', colour: 'red' }, /^configuration\.colour/],
      ['a missing required property', { region: 'eu' }, /^configuration\.apiKey: is required/],
      ['a value of the wrong type', { apiKey: 'k', sampleRate: '0.5' }, /^configuration\.sampleRate: must be a number/],
      ['a value outside the enum', { apiKey: 'k', region: 'mars' }, /^configuration\.region: must be one of/],
    ])('refuses a configuration with %s', (_case, configuration, message) => {
      given(integrationDecider, [published(), installed('i-1', other)])
        .when(command('UpdateInstallation', { installationId: 'i-1', organizationId: other, configuration }))
        .thenThrows('validation', message);
    });

    it('refuses more than 5 external ids, and installations of another organization', () => {
      given(integrationDecider, [published(), installed('i-1', other)])
        .when(
          command('UpdateInstallation', {
            installationId: 'i-1',
            organizationId: other,
            externalIds: ['1', '2', '3', '4', '5', '6'],
          }),
        )
        .thenThrows('validation', /^externalIds/);
      given(integrationDecider, [published(), installed('i-1', other)])
        .when(command('UpdateInstallation', { installationId: 'i-1', organizationId: owner, externalIds: [] }))
        .thenThrows('not-found');
    });

    it('uninstalls, and changes nothing for an installation already gone', () => {
      given(integrationDecider, [published(), installed('i-1', other)])
        .when(command('UninstallIntegration', { installationId: 'i-1', organizationId: other }))
        .then([
          {
            type: 'IntegrationUninstalled',
            data: { name, installationId: 'i-1', organizationId: other, reason: 'uninstalled', uninstalledAt: T1 },
          },
        ]);
      given(integrationDecider, [published()])
        .when(command('UninstallIntegration', { installationId: 'i-1', organizationId: other }))
        .thenNothing();
    });

    it('keeps installations across versions', () => {
      given(integrationDecider, [published(1), installed('i-1', other), published(2)]).thenState({
        status: 'published',
        organizationId: owner,
        version: 2,
        visibility: 'public',
        account: publication().configurations.account,
        installations: { 'i-1': other },
      });
    });
  });

  describe('checkInstallationConfiguration', () => {
    it('takes any flat values when the account configuration is a ContentKit component', () => {
      expect(checkInstallationConfiguration({ a: 1, b: 'x' }, { componentId: 'config' })).toEqual({ a: 1, b: 'x' });
    });

    it('takes nothing when the integration declares no account configuration', () => {
      expect(() => checkInstallationConfiguration({ a: 1 }, undefined)).toThrow(/declares no account configuration/);
      expect(checkInstallationConfiguration({}, undefined)).toEqual({});
    });
  });
});
