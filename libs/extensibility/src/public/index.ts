export {
  customFieldsStream,
  translationSettingsStream,
  type CustomFieldsEvent,
  type TranslationSettingsEvent,
  openApiSpecStream,
  type OpenAPISpecEvent,
} from '../domain';
export { CUSTOM_FIELD_READ_MODELS, TRANSLATION_READ_MODELS } from '../application/read-models';
export { integrationStream, type IntegrationEvent } from '../domain';
export { INTEGRATION_READ_MODELS } from '../application/integration-read-models';
export { OPENAPI_READ_MODELS } from '../application/openapi-read-models';
export { extensibilityPublicEvents } from './public-events';
