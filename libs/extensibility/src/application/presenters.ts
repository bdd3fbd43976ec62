import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { type CustomFieldDoc, type TranslationSettingsDoc } from './read-models';

export const customFieldPath = (organizationId: string, name: string) =>
  `/orgs/${organizationId}/custom-fields/${encodeURIComponent(name)}`;

/** A custom field in the spec 0.91.0 shape, plus the `object` every resource of this API carries. */
export function presentCustomField(doc: CustomFieldDoc, urls: PublicUrls) {
  return {
    object: 'custom-field' as const,
    id: doc.id,
    name: doc.name,
    title: doc.title,
    description: doc.description,
    placeholder: doc.placeholder,
    type: doc.type,
    ...(doc.options ? { options: doc.options } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    urls: { location: urls.api + customFieldPath(doc.organizationId, doc.name) },
  };
}

export const translationSettingsPath = (organizationId: string, id: string) =>
  `/orgs/${organizationId}/translations/${id}`;

/** Translation settings in the seed's shape; `edit` is for the organization's admins. */
export function presentTranslationSettings(doc: TranslationSettingsDoc, urls: PublicUrls, role: RoleOrGuest) {
  return {
    object: 'translation-settings' as const,
    id: doc.id,
    title: doc.title,
    languages: doc.languages,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    permissions: { view: true, edit: atLeast(role, 'admin') },
    urls: { location: urls.api + translationSettingsPath(doc.organizationId, doc.id) },
  };
}
