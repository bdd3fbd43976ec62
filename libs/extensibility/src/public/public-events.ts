/**
 * The extensibility context's public events: custom fields (and the values spaces give them), translation
 * settings, integrations with their installations, and OpenAPI specs. Secrets, installation configurations
 * (which may hold credentials) and source URLs (which may carry tokens) never appear: an installation's change
 * names the settings it touched, an OpenAPI source says only its kind.
 */
import { js, pick, publicEventMapper, publicKind } from '@app/kernel';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fieldType = js.enum('text', 'number', 'boolean', 'tags', 'select:single', 'select:multi');
const fieldText = { title: js.string, description: js.string, placeholder: js.string };
const sourceKind = js.object({ kind: js.enum('url', 'text') });

const customField = (type: string, d: Data, data: Record<string, unknown>) => ({
  type,
  organization: d.organizationId as string,
  subject: { object: 'custom-field', id: d.name as string },
  data,
});
const translationSettings = (type: string, d: Data, data: Record<string, unknown>) => ({
  type,
  organization: d.organizationId as string,
  subject: { object: 'translation-settings', id: d.translationSettingsId as string },
  data,
});
const integration = (type: string, d: Data, data: Record<string, unknown>) => ({
  type,
  organization: d.organizationId as string,
  subject: { object: 'integration', id: d.name as string },
  data,
});
const installation = (type: string, d: Data, data: Record<string, unknown>) => ({
  type,
  organization: d.organizationId as string,
  subject: { object: 'integration-installation', id: d.installationId as string },
  data: { integration: { name: d.name }, ...data },
  audience: 'admin' as const,
});
const openApiSpec = (type: string, d: Data, data: Record<string, unknown>) => ({
  type,
  organization: d.organizationId as string,
  subject: { object: 'openapi-spec', id: d.slug as string },
  data,
});
const integrationRef = js.object({ name: js.string });

export const extensibilityPublicEvents = publicEventMapper({
  kinds: [
    publicKind(
      'custom_field.created',
      'custom-field',
      'A custom field was defined in the organization (the subject id is its name).',
      js.object({ name: js.string, type: fieldType, ...fieldText, options: js.array(js.string) }, ['options']),
    ),
    publicKind(
      'custom_field.updated',
      'custom-field',
      "A custom field's texts or options changed: `changes` holds those set.",
      js.object({ name: js.string, changes: js.partial({ ...fieldText, options: js.array(js.string) }) }),
    ),
    publicKind(
      'custom_field.deleted',
      'custom-field',
      'A custom field was deleted, with the values spaces gave it.',
      js.object({ name: js.string }),
    ),
    publicKind(
      'space.custom_fields_updated',
      'space',
      "A space's custom-field values changed (read them at `GET /v1/spaces/{spaceId}/custom-fields`).",
      js.object({}),
    ),
    publicKind(
      'translation_settings.created',
      'translation-settings',
      'Translation settings were created.',
      js.object({ title: js.string, languages: js.array(js.string) }),
    ),
    publicKind(
      'translation_settings.updated',
      'translation-settings',
      'Translation settings were replaced (`languages` only when they were given).',
      js.object({ title: js.string, languages: js.array(js.string) }, ['languages']),
    ),
    publicKind(
      'translation_settings.deleted',
      'translation-settings',
      'Translation settings were deleted.',
      js.object({}),
    ),
    publicKind(
      'integration.published',
      'integration',
      'The organization published an integration, or a new version of it (the subject id is its name).',
      js.object({ version: js.integer, title: js.string, visibility: js.string }),
    ),
    publicKind('integration.unpublished', 'integration', 'The organization unpublished an integration.', js.object({})),
    publicKind(
      'integration_installation.created',
      'integration-installation',
      'An integration was installed in the organization (admins only).',
      js.object({ integration: integrationRef }),
    ),
    publicKind(
      'integration_installation.updated',
      'integration-installation',
      "An installation's settings changed (admins only); `fields` names those set, never their values.",
      js.object({ integration: integrationRef, fields: js.array(js.string) }),
    ),
    publicKind(
      'integration_installation.deleted',
      'integration-installation',
      'An integration was uninstalled, or ended because its owner unpublished it (admins only).',
      js.object({ integration: integrationRef, reason: js.enum('uninstalled', 'unpublished') }),
    ),
    publicKind(
      'openapi_spec.created',
      'openapi-spec',
      'An OpenAPI spec was created (the subject id is its slug); its source is processed next.',
      js.object({ source: sourceKind }),
    ),
    publicKind(
      'openapi_spec.source_updated',
      'openapi-spec',
      'An OpenAPI spec was given a new source; it is processed again.',
      js.object({ source: sourceKind }),
    ),
    publicKind(
      'openapi_spec.processing_started',
      'openapi-spec',
      "The processing of a spec's source began.",
      js.object({ source: js.ref }),
    ),
    publicKind(
      'openapi_spec.version_created',
      'openapi-spec',
      'A source was processed into a new version of the spec.',
      js.object(
        {
          version: js.ref,
          format: js.enum('json', 'yaml'),
          specification: js.enum('openapi', 'swagger'),
          specVersion: js.string,
          title: js.string,
        },
        ['title'],
      ),
    ),
    publicKind(
      'openapi_spec.processing_failed',
      'openapi-spec',
      'A source could not be processed.',
      js.object({
        source: js.ref,
        errorCode: js.enum('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'),
        errorCount: js.integer,
      }),
    ),
    publicKind('openapi_spec.deleted', 'openapi-spec', 'An OpenAPI spec was deleted.', js.object({})),
  ],
  rules: {
    CustomFieldCreated: (d) =>
      customField('custom_field.created', d, {
        name: d.name,
        type: d.type,
        title: d.title,
        description: d.description,
        placeholder: d.placeholder,
        ...(d.options ? { options: d.options } : {}),
      }),
    CustomFieldUpdated: (d) =>
      customField('custom_field.updated', d, {
        name: d.name,
        changes: pick(d.changes, ['title', 'description', 'placeholder', 'options']),
      }),
    CustomFieldDeleted: (d) => customField('custom_field.deleted', d, { name: d.name }),
    // values that went with their field are told by custom_field.deleted
    SpaceCustomFieldValuesChanged: (d) =>
      d.reason === 'field-deleted'
        ? null
        : {
            type: 'space.custom_fields_updated',
            organization: d.organizationId as string,
            subject: { object: 'space', id: d.spaceId as string },
            data: {},
            audience: { space: d.spaceId as string },
          },
    TranslationSettingsCreated: (d) =>
      translationSettings('translation_settings.created', d, { title: d.title, languages: d.languages ?? [] }),
    TranslationSettingsReplaced: (d) =>
      translationSettings('translation_settings.updated', d, {
        title: d.title,
        ...(d.languages ? { languages: d.languages } : {}),
      }),
    TranslationSettingsDeleted: (d) => translationSettings('translation_settings.deleted', d, {}),
    IntegrationPublished: (d) =>
      integration('integration.published', d, {
        version: d.version,
        title: d.publication?.title ?? d.name,
        visibility: d.publication?.visibility ?? 'private',
      }),
    IntegrationUnpublished: (d) => integration('integration.unpublished', d, {}),
    IntegrationInstalled: (d) => installation('integration_installation.created', d, {}),
    IntegrationInstallationUpdated: (d) =>
      installation('integration_installation.updated', d, { fields: Object.keys(d.changes ?? {}).sort() }),
    IntegrationUninstalled: (d) => installation('integration_installation.deleted', d, { reason: d.reason }),
    OpenAPISpecCreated: (d) => openApiSpec('openapi_spec.created', d, { source: { kind: d.source.kind } }),
    OpenAPISpecSourceChanged: (d) => openApiSpec('openapi_spec.source_updated', d, { source: { kind: d.source.kind } }),
    OpenAPISpecProcessingStarted: (d) =>
      openApiSpec('openapi_spec.processing_started', d, { source: { id: d.sourceId } }),
    OpenAPISpecVersionCreated: (d) =>
      openApiSpec('openapi_spec.version_created', d, {
        version: { id: d.versionId },
        format: d.format,
        specification: d.specification,
        specVersion: d.specVersion,
        ...(d.title !== undefined ? { title: d.title } : {}),
      }),
    OpenAPISpecProcessingFailed: (d) =>
      openApiSpec('openapi_spec.processing_failed', d, {
        source: { id: d.sourceId },
        errorCode: d.errorCode,
        errorCount: d.errorCount,
      }),
    OpenAPISpecDeleted: (d) => openApiSpec('openapi_spec.deleted', d, {}),
  },
});
