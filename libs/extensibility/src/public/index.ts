export {
  customFieldsStream,
  translationSettingsStream,
  type CustomFieldsEvent,
  type TranslationSettingsEvent,
} from '../domain';
export { CUSTOM_FIELD_READ_MODELS, TRANSLATION_READ_MODELS } from '../application/read-models';
