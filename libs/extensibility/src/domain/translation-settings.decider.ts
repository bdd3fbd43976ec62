import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';
import { checkLength } from './text';

/** One stream per translation settings resource. */
export const translationSettingsStream = (translationSettingsId: string) =>
  `translationsettings-${translationSettingsId}`;

/** The spec's TranslationLanguage list (0.202.0, the newest: it adds `zh-tw` to 0.137.0's 38). */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr',
  'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv',
  'et', 'sl',
] as const; // prettier-ignore
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

export const TRANSLATION_TITLE = { min: 1, max: 100 };

type Cmd<Type extends string, Data> = Command<Type, { translationSettingsId: string; organizationId: string } & Data>;

export type CreateTranslationSettings = Cmd<
  'CreateTranslationSettings',
  { title: string; languages?: TranslationLanguage[] }
>;
/** A PUT: the title is replaced; languages left out are kept. */
export type ReplaceTranslationSettings = Cmd<
  'ReplaceTranslationSettings',
  { title: string; languages?: TranslationLanguage[] }
>;
export type DeleteTranslationSettings = Cmd<'DeleteTranslationSettings', object>;

export type TranslationSettingsCommand =
  CreateTranslationSettings | ReplaceTranslationSettings | DeleteTranslationSettings;

type Ids = { translationSettingsId: string; organizationId: string };

export type TranslationSettingsCreated = DomainEvent<
  'TranslationSettingsCreated',
  Ids & { title: string; languages: TranslationLanguage[]; createdAt: string }
>;
/** `languages` is absent when the PUT left them as they were. */
export type TranslationSettingsReplaced = DomainEvent<
  'TranslationSettingsReplaced',
  Ids & { title: string; languages?: TranslationLanguage[]; updatedAt: string }
>;
export type TranslationSettingsDeleted = DomainEvent<'TranslationSettingsDeleted', Ids & { deletedAt: string }>;

export type TranslationSettingsEvent =
  TranslationSettingsCreated | TranslationSettingsReplaced | TranslationSettingsDeleted;

export const TRANSLATION_SETTINGS_EVENTS = [
  'TranslationSettingsCreated',
  'TranslationSettingsReplaced',
  'TranslationSettingsDeleted',
] as const;

export type TranslationSettingsState =
  { status: 'absent' } | { status: 'active'; organizationId: string } | { status: 'deleted'; organizationId: string };

function checkTitle(title: string): void {
  checkLength('title', title, TRANSLATION_TITLE.max, TRANSLATION_TITLE.min);
  if (title.trim().length === 0) throw new ValidationFailed('title: must not be blank');
}

function checkLanguages(languages: readonly string[]): void {
  const unknown = languages.find((one) => !(TRANSLATION_LANGUAGES as readonly string[]).includes(one));
  if (unknown !== undefined) throw new ValidationFailed(`languages: "${unknown}" is not a supported language`);
  const repeated = languages.find((one, index) => languages.indexOf(one) !== index);
  if (repeated !== undefined) throw new ValidationFailed(`languages: "${repeated}" appears more than once`);
}

function decide(command: TranslationSettingsCommand, state: TranslationSettingsState): TranslationSettingsEvent[] {
  const { translationSettingsId, organizationId } = command.data;
  const ids = { translationSettingsId, organizationId };
  const now = command.metadata.now;
  const missing = () => new NotFound(`Translation settings ${translationSettingsId} not found`);
  switch (command.type) {
    case 'CreateTranslationSettings': {
      checkTitle(command.data.title);
      checkLanguages(command.data.languages ?? []);
      if (state.status !== 'absent')
        throw new IllegalState(`Translation settings ${translationSettingsId} already exist`);
      const languages = command.data.languages ?? [];
      return [
        { type: 'TranslationSettingsCreated', data: { ...ids, title: command.data.title, languages, createdAt: now } },
      ];
    }
    case 'ReplaceTranslationSettings': {
      if (state.status !== 'active' || state.organizationId !== organizationId) throw missing();
      checkTitle(command.data.title);
      const { languages } = command.data;
      if (languages !== undefined) checkLanguages(languages);
      return [
        {
          type: 'TranslationSettingsReplaced',
          data: {
            ...ids,
            title: command.data.title,
            ...(languages !== undefined ? { languages } : {}),
            updatedAt: now,
          },
        },
      ];
    }
    case 'DeleteTranslationSettings':
      if (state.status === 'absent' || state.organizationId !== organizationId) throw missing();
      if (state.status === 'deleted') return [];
      return [{ type: 'TranslationSettingsDeleted', data: { ...ids, deletedAt: now } }];
    default:
      return assertNever(command);
  }
}

function evolve(state: TranslationSettingsState, event: TranslationSettingsEvent): TranslationSettingsState {
  switch (event.type) {
    case 'TranslationSettingsCreated':
      return { status: 'active', organizationId: event.data.organizationId };
    case 'TranslationSettingsReplaced':
      return state;
    case 'TranslationSettingsDeleted':
      return { status: 'deleted', organizationId: event.data.organizationId };
    default:
      return assertNever(event);
  }
}

export const translationSettingsDecider: Decider<
  TranslationSettingsState,
  TranslationSettingsCommand,
  TranslationSettingsEvent
> = { initialState: () => ({ status: 'absent' }), decide, evolve };
