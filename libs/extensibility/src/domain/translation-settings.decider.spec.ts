import { at, given } from '@app/kernel/testing';
import {
  type TranslationSettingsCommand,
  type TranslationSettingsEvent,
  translationSettingsDecider,
} from './translation-settings.decider';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const ids = { translationSettingsId: 'ts-1', organizationId: 'org-1' };

const created: TranslationSettingsEvent = {
  type: 'TranslationSettingsCreated',
  data: { ...ids, title: 'Docs in French', languages: ['fr'], createdAt: T0 },
};
const deleted: TranslationSettingsEvent = { type: 'TranslationSettingsDeleted', data: { ...ids, deletedAt: T0 } };

const command = (
  type: TranslationSettingsCommand['type'],
  data: Record<string, unknown> = {},
  organizationId = ids.organizationId,
) => ({ type, data: { ...ids, organizationId, ...data }, metadata: at(T1) }) as TranslationSettingsCommand;

describe('translation settings decider', () => {
  describe('CreateTranslationSettings', () => {
    it('creates settings with an empty list of languages when none are given', () => {
      given(translationSettingsDecider)
        .when(command('CreateTranslationSettings', { title: 'Localization' }))
        .then([
          {
            type: 'TranslationSettingsCreated',
            data: { ...ids, title: 'Localization', languages: [], createdAt: T1 },
          },
        ]);
    });

    it('keeps the languages it is given', () => {
      given(translationSettingsDecider)
        .when(command('CreateTranslationSettings', { title: 'L', languages: ['fr', 'zh-tw'] }))
        .then([
          {
            type: 'TranslationSettingsCreated',
            data: { ...ids, title: 'L', languages: ['fr', 'zh-tw'], createdAt: T1 },
          },
        ]);
    });

    it('wants a title of 1 to 100 code points, not blank', () => {
      const create = (title: string) => command('CreateTranslationSettings', { title });
      given(translationSettingsDecider)
        .when(create(''))
        .thenThrows('validation', /^title/);
      given(translationSettingsDecider)
        .when(create('   '))
        .thenThrows('validation', /^title/);
      given(translationSettingsDecider)
        .when(create('x'.repeat(101)))
        .thenThrows('validation', /^title/);
      given(translationSettingsDecider)
        .when(create('🌍'.repeat(101)))
        .thenThrows('validation', /^title/);
      expect(translationSettingsDecider.decide(create('🌍'.repeat(100)), { status: 'absent' })).toHaveLength(1);
    });

    it('refuses unknown and repeated languages', () => {
      given(translationSettingsDecider)
        .when(command('CreateTranslationSettings', { title: 'L', languages: ['fr', 'klingon'] }))
        .thenThrows('validation', /^languages: "klingon"/);
      given(translationSettingsDecider)
        .when(command('CreateTranslationSettings', { title: 'L', languages: ['fr', 'fr'] }))
        .thenThrows('validation', /^languages: "fr" appears more than once/);
    });

    it('refuses an id already used', () => {
      given(translationSettingsDecider, [created])
        .when(command('CreateTranslationSettings', { title: 'L' }))
        .thenThrows('illegal-state');
    });
  });

  describe('ReplaceTranslationSettings', () => {
    it('replaces the title and keeps the languages when left out', () => {
      given(translationSettingsDecider, [created])
        .when(command('ReplaceTranslationSettings', { title: 'French' }))
        .then([{ type: 'TranslationSettingsReplaced', data: { ...ids, title: 'French', updatedAt: T1 } }]);
    });

    it('replaces the languages when given, an empty list included', () => {
      given(translationSettingsDecider, [created])
        .when(command('ReplaceTranslationSettings', { title: 'French', languages: [] }))
        .then([
          { type: 'TranslationSettingsReplaced', data: { ...ids, title: 'French', languages: [], updatedAt: T1 } },
        ]);
    });

    it("is not found when deleted, never created, or another organization's", () => {
      const replace = (organizationId?: string) =>
        command('ReplaceTranslationSettings', { title: 'French' }, organizationId);
      given(translationSettingsDecider).when(replace()).thenThrows('not-found');
      given(translationSettingsDecider, [created, deleted]).when(replace()).thenThrows('not-found');
      given(translationSettingsDecider, [created]).when(replace('org-2')).thenThrows('not-found');
    });

    it('checks the title and languages', () => {
      given(translationSettingsDecider, [created])
        .when(command('ReplaceTranslationSettings', { title: 'x'.repeat(101) }))
        .thenThrows('validation', /^title/);
      given(translationSettingsDecider, [created])
        .when(command('ReplaceTranslationSettings', { title: 'ok', languages: ['EN'] }))
        .thenThrows('validation', /^languages/);
    });
  });

  describe('DeleteTranslationSettings', () => {
    it('deletes, and does nothing the second time', () => {
      given(translationSettingsDecider, [created])
        .when(command('DeleteTranslationSettings'))
        .then([{ type: 'TranslationSettingsDeleted', data: { ...ids, deletedAt: T1 } }]);
      given(translationSettingsDecider, [created, deleted]).when(command('DeleteTranslationSettings')).thenNothing();
    });

    it("is not found when never created or another organization's", () => {
      given(translationSettingsDecider).when(command('DeleteTranslationSettings')).thenThrows('not-found');
      given(translationSettingsDecider, [created])
        .when(command('DeleteTranslationSettings', {}, 'org-2'))
        .thenThrows('not-found');
    });
  });
});
