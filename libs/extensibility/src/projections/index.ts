import { customFieldsProjection } from './custom-fields.projection';
import { spaceCustomFieldValuesProjection } from './space-custom-field-values.projection';
import { translationSettingsProjection } from './translation-settings.projection';
import { installationsProjection, integrationsProjection } from './integrations.projection';
import { openApiSpecVersionsProjection, openApiSpecsProjection } from './openapi-specs.projection';

export {
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
  integrationsProjection,
  installationsProjection,
  openApiSpecsProjection,
  openApiSpecVersionsProjection,
};

export const extensibilityProjections = [
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
  integrationsProjection,
  installationsProjection,
  openApiSpecsProjection,
  openApiSpecVersionsProjection,
];
