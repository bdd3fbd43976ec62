import { customFieldsProjection } from './custom-fields.projection';
import { spaceCustomFieldValuesProjection } from './space-custom-field-values.projection';
import { translationSettingsProjection } from './translation-settings.projection';
import { installationsProjection, integrationsProjection } from './integrations.projection';

export {
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
  integrationsProjection,
  installationsProjection,
};

export const extensibilityProjections = [
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
  integrationsProjection,
  installationsProjection,
];
