import { type Projection } from '@app/kernel';
import { SAML_PROVIDERS, type SamlProviderDoc } from '../application/read-models';
import { type SamlProviderEvent, type SamlProviderSettings } from '../domain';

/** Applies settings: an empty string clears `entityID`, `certificate` or `ssoURL`. */
function withSettings(doc: SamlProviderDoc, settings: SamlProviderSettings): SamlProviderDoc {
  const next: SamlProviderDoc = { ...doc };
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (value === '' && key !== 'label') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** The SAML providers of every organization, one document each. */
export const samlProvidersProjection: Projection<SamlProviderDoc> = {
  name: 'saml_providers',
  version: 1,
  collection: SAML_PROVIDERS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: ['SamlProviderCreated', 'SamlProviderChanged', 'SamlProviderDeleted'],
  idOf: (event) => String(event.data.providerId),
  evolve(doc, recorded) {
    const event = recorded as unknown as SamlProviderEvent;
    switch (event.type) {
      case 'SamlProviderCreated':
        return withSettings(
          {
            id: event.data.providerId,
            organizationId: event.data.organizationId,
            label: event.data.settings.label,
            defaultRole: null,
            createdAt: event.data.createdAt,
          },
          event.data.settings,
        );
      case 'SamlProviderChanged':
        return doc ? withSettings(doc, event.data.changes) : null;
      case 'SamlProviderDeleted':
        return null;
      default:
        return doc;
    }
  },
};
