import { customFieldsProjection } from './custom-fields.projection';
import { spaceCustomFieldValuesProjection } from './space-custom-field-values.projection';
import { translationSettingsProjection } from './translation-settings.projection';
import { openApiSpecVersionsProjection, openApiSpecsProjection } from './openapi-specs.projection';

export {
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
  openApiSpecsProjection,
  openApiSpecVersionsProjection,
};

export const extensibilityProjections = [
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
  openApiSpecsProjection,
  openApiSpecVersionsProjection,
];
