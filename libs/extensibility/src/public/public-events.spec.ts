import { mapPublicEvent, recorded } from '@app/kernel/testing';
import { extensibilityPublicEvents } from './public-events';

describe('extensibility public events', () => {
  it('names a custom field by its name, and tells that a space changed its values', () => {
    expect(
      mapPublicEvent(
        extensibilityPublicEvents,
        recorded('CustomFieldCreated', {
          organizationId: 'o1',
          fieldId: 'f1',
          name: 'owner',
          type: 'select:single',
          title: 'Owner',
          description: '',
          placeholder: '',
          options: ['a', 'b'],
          createdAt: 't',
        }),
      ),
    ).toMatchObject({ subject: { object: 'custom-field', id: 'owner' }, data: { options: ['a', 'b'] } });
    const values = recorded('SpaceCustomFieldValuesChanged', {
      organizationId: 'o1',
      spaceId: 's1',
      set: { f1: 'a' },
      removed: [],
      changedAt: 't',
    });
    expect(mapPublicEvent(extensibilityPublicEvents, values)).toMatchObject({
      type: 'space.custom_fields_updated',
      audience: { space: 's1' },
    });
    expect(
      extensibilityPublicEvents.map(
        recorded('SpaceCustomFieldValuesChanged', { ...values.data, reason: 'field-deleted' }),
      ),
    ).toBeNull();
  });

  it('never shows secrets, installation configurations or source URLs', () => {
    const published = mapPublicEvent(
      extensibilityPublicEvents,
      recorded('IntegrationPublished', {
        name: 'slack',
        organizationId: 'o1',
        version: 2,
        publication: { title: 'Slack', visibility: 'public' },
        secrets: { sealed: 'SEALED', count: 1 },
        publishedAt: 't',
      }),
    );
    expect(published?.data).toEqual({ version: 2, title: 'Slack', visibility: 'public' });
    const updated = mapPublicEvent(
      extensibilityPublicEvents,
      recorded('IntegrationInstallationUpdated', {
        name: 'slack',
        installationId: 'i1',
        organizationId: 'o1',
        changes: { configuration: { apiKey: 'KEY' }, externalIds: ['x'] },
        updatedAt: 't',
      }),
    );
    expect(updated).toMatchObject({ audience: 'admin', data: { fields: ['configuration', 'externalIds'] } });
    const spec = mapPublicEvent(
      extensibilityPublicEvents,
      recorded('OpenAPISpecCreated', {
        organizationId: 'o1',
        slug: 'petstore',
        specId: 'sp1',
        sourceId: 'src1',
        source: { kind: 'url', url: 'https://example.com/openapi.json?token=TOKEN' },
        createdAt: 't',
      }),
    );
    expect(spec?.data).toEqual({ source: { kind: 'url' } });
    expect(JSON.stringify([published, updated, spec])).not.toMatch(/SEALED|KEY|TOKEN/);
  });
});
