import { type CustomFieldType, type CustomFieldValue, type TranslationLanguage } from '../domain';

/** Read-model collections of the extensibility context (written by ../projections). */
export const CUSTOM_FIELDS = 'custom_fields';
export const SPACE_CUSTOM_FIELD_VALUES = 'space_custom_field_values';
export const TRANSLATION_SETTINGS = 'translation_settings';

/** One custom field of an organization (id: the field's id). */
export interface CustomFieldDoc {
  id: string;
  organizationId: string;
  name: string;
  type: CustomFieldType;
  title: string;
  description: string;
  placeholder: string;
  options?: string[];
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

/** The values one space holds in one organization, keyed by field id (id: `<organizationId>:<spaceId>`). */
export interface SpaceCustomFieldValuesDoc {
  id: string;
  organizationId: string;
  spaceId: string;
  values: Record<string, CustomFieldValue>;
  [key: string]: unknown;
}

export const spaceValuesDocId = (organizationId: string, spaceId: string) => `${organizationId}:${spaceId}`;

export interface TranslationSettingsDoc {
  id: string;
  organizationId: string;
  title: string;
  languages: TranslationLanguage[];
  createdAt: string;
  updatedAt: string;
  /** Revision of the settings' stream (the ETag). */
  version: number;
  [key: string]: unknown;
}

/** What a mutating endpoint waits for before it answers. */
export const CUSTOM_FIELD_READ_MODELS = [CUSTOM_FIELDS, SPACE_CUSTOM_FIELD_VALUES];
export const TRANSLATION_READ_MODELS = [TRANSLATION_SETTINGS];
