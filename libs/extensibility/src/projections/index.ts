import { customFieldsProjection } from './custom-fields.projection';
import { spaceCustomFieldValuesProjection } from './space-custom-field-values.projection';
import { translationSettingsProjection } from './translation-settings.projection';

export { customFieldsProjection, spaceCustomFieldValuesProjection, translationSettingsProjection };

export const extensibilityProjections = [
  customFieldsProjection,
  spaceCustomFieldValuesProjection,
  translationSettingsProjection,
];
