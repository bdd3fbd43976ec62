import { type Projection } from '@app/kernel';
import { TRANSLATION_SETTINGS_EVENTS, type TranslationSettingsEvent } from '../domain';
import { TRANSLATION_SETTINGS, type TranslationSettingsDoc } from '../application/read-models';

function evolveSettings(
  doc: TranslationSettingsDoc | null,
  event: TranslationSettingsEvent,
  revision: number,
): TranslationSettingsDoc | null {
  switch (event.type) {
    case 'TranslationSettingsCreated': {
      const { translationSettingsId, organizationId, title, languages, createdAt } = event.data;
      return {
        id: translationSettingsId,
        organizationId,
        title,
        languages,
        createdAt,
        updatedAt: createdAt,
        version: revision,
      };
    }
    case 'TranslationSettingsReplaced': {
      if (!doc) return null;
      const { title, languages, updatedAt } = event.data;
      return { ...doc, title, languages: languages ?? doc.languages, updatedAt, version: revision };
    }
    case 'TranslationSettingsDeleted':
      return null;
  }
}

export const translationSettingsProjection: Projection<TranslationSettingsDoc> = {
  name: TRANSLATION_SETTINGS,
  version: 1,
  collection: TRANSLATION_SETTINGS,
  indexes: [
    {
      fields: [
        ['organizationId', 1],
        ['createdAt', 1],
      ],
    },
  ],
  handles: TRANSLATION_SETTINGS_EVENTS,
  idOf: (event) => String(event.data.translationSettingsId),
  evolve: (doc, event) => evolveSettings(doc, event as unknown as TranslationSettingsEvent, event.revision),
};
