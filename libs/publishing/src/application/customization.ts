import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ValidationFailed } from '@app/kernel';

/**
 * A site's customization settings: what a docs site looks like and which reader features it turns on. The shape
 * follows the official spec's SiteCustomizationSettings, plus the seed's `aiSearch` and `ai.pageLinkSummaries`.
 * A PUT replaces the whole settings object, so every required part must be given.
 */
const color = {
  type: 'object',
  additionalProperties: false,
  required: ['light', 'dark'],
  properties: {
    light: { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' },
    dark: { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' },
  },
};
const url = { type: 'string', format: 'uri', maxLength: 2048, pattern: '^https?://' };
const themedUrl = {
  type: 'object',
  additionalProperties: false,
  required: ['light', 'dark'],
  properties: { light: url, dark: url },
};
const toggle = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: { enabled: { type: 'boolean' } },
};
/** A link target: a content reference such as `{kind: 'url', url}` or `{kind: 'page', page, space?}`. */
const contentRef = {
  type: 'object',
  required: ['kind'],
  properties: {
    kind: { enum: ['url', 'file', 'anchor', 'page', 'space', 'collection', 'user', 'reusable-content', 'openapi'] },
  },
  additionalProperties: { type: 'string', maxLength: 2048 },
};
const link = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'to'],
  properties: { title: { type: 'string', maxLength: 64 }, to: contentRef },
};
const customFont = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'custom', 'fontFamily', 'fontFaces'],
  properties: {
    id: { type: 'string', maxLength: 100 },
    custom: { type: 'boolean' },
    fontFamily: { type: 'string', minLength: 1, maxLength: 50 },
    fontFaces: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['weight', 'sources'],
        properties: {
          weight: { type: 'integer', minimum: 1, maximum: 1000 },
          sources: {
            type: 'array',
            minItems: 1,
            maxItems: 10,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['url'],
              properties: { url, format: { enum: ['woff2', 'woff'] } },
            },
          },
        },
      },
    },
  },
};
const FONTS = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
];
const MONOSPACE_FONTS = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
];
const object = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export const CUSTOMIZATION_SCHEMA = object(
  [
    'styling',
    'internationalization',
    'favicon',
    'header',
    'footer',
    'themes',
    'pdf',
    'feedback',
    'ai',
    'advancedCustomization',
    'git',
    'pageActions',
    'externalLinks',
    'pagination',
    'trademark',
    'privacyPolicy',
    'socialPreview',
    'insights',
  ],
  {
    title: { type: 'string', minLength: 2, maxLength: 128 },
    styling: object(
      [
        'theme',
        'primaryColor',
        'infoColor',
        'successColor',
        'warningColor',
        'dangerColor',
        'corners',
        'depth',
        'links',
        'font',
        'monospaceFont',
        'background',
        'icons',
        'sidebar',
        'search',
      ],
      {
        theme: { enum: ['clean', 'muted', 'bold', 'gradient'] },
        primaryColor: color,
        tint: object(['color'], { color }),
        infoColor: color,
        successColor: color,
        warningColor: color,
        dangerColor: color,
        corners: { enum: ['straight', 'rounded', 'circular'] },
        depth: { enum: ['subtle', 'flat'] },
        links: { enum: ['default', 'accent'] },
        font: { oneOf: [{ enum: FONTS }, customFont] },
        monospaceFont: { oneOf: [{ enum: MONOSPACE_FONTS }, customFont] },
        background: { enum: ['plain', 'match'] },
        icons: { enum: ['regular', 'solid', 'duotone', 'light', 'thin'] },
        sidebar: object(['background', 'list'], {
          background: { enum: ['default', 'filled'] },
          list: { enum: ['default', 'pill', 'line'] },
        }),
        search: { enum: ['prominent', 'subtle'] },
      },
    ),
    internationalization: object(['locale'], {
      locale: { enum: ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] },
    }),
    favicon: {
      oneOf: [
        object(['icon'], { icon: themedUrl }),
        object(['emoji'], { emoji: { type: 'string', minLength: 1, maxLength: 16 } }),
        object([], {}),
      ],
    },
    header: object(['preset', 'links'], {
      preset: { enum: ['default', 'bold', 'contrast', 'custom', 'none'] },
      logo: themedUrl,
      backgroundColor: color,
      linkColor: color,
      links: {
        type: 'array',
        maxItems: 20,
        items: object(['title', 'to', 'links'], {
          title: { type: 'string', maxLength: 64 },
          style: { enum: ['link', 'button-primary', 'button-secondary'] },
          to: { oneOf: [contentRef, { type: 'null' }] },
          links: { type: 'array', maxItems: 20, items: link },
          condition: { type: 'string', minLength: 1, maxLength: 1024 },
        }),
      },
    }),
    footer: object(['groups'], {
      logo: themedUrl,
      groups: {
        type: 'array',
        maxItems: 20,
        items: object(['title', 'links'], {
          title: { type: 'string', maxLength: 64 },
          links: { type: 'array', maxItems: 20, items: link },
        }),
      },
      copyright: { type: 'string', maxLength: 300 },
    }),
    announcement: object(['enabled', 'message', 'style'], {
      enabled: { type: 'boolean' },
      message: { type: 'string', minLength: 2, maxLength: 128 },
      link,
      style: { enum: ['info', 'warning', 'danger', 'success'] },
    }),
    themes: object(['default', 'toggeable'], { default: { enum: ['light', 'dark'] }, toggeable: { type: 'boolean' } }),
    pdf: toggle,
    feedback: toggle,
    aiSearch: toggle,
    ai: object(['mode'], {
      mode: { enum: ['none', 'search', 'assistant', 'integration'] },
      integrationId: { type: 'string', maxLength: 100 },
      pageLinkSummaries: toggle,
    }),
    advancedCustomization: toggle,
    git: object(['showEditLink'], { showEditLink: { type: 'boolean' } }),
    pageActions: object(['externalAI', 'markdown'], {
      externalAI: { type: 'boolean' },
      markdown: { type: 'boolean' },
    }),
    externalLinks: object(['target'], { target: { enum: ['self', 'blank'] } }),
    pagination: toggle,
    trademark: toggle,
    privacyPolicy: object([], { url }),
    socialPreview: object([], { url }),
    insights: object(['trackingCookie'], { trackingCookie: { type: 'boolean' } }),
  },
);

/** What a site looks like before anyone customizes it. */
export function defaultCustomization(): Record<string, unknown> {
  const pair = (light: string, dark: string) => ({ light, dark });
  return {
    styling: {
      theme: 'clean',
      primaryColor: pair('#346DDB', '#346DDB'),
      infoColor: pair('#787878', '#787878'),
      successColor: pair('#00C950', '#00C950'),
      warningColor: pair('#FE9A00', '#FE9A00'),
      dangerColor: pair('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    aiSearch: { enabled: true },
    ai: { mode: 'search', pageLinkSummaries: { enabled: false } },
    advancedCustomization: { enabled: true },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
addFormats(ajv, ['uri']);
const validateCustomization: ValidateFunction = ajv.compile(CUSTOMIZATION_SCHEMA);

/** The path of an ajv error as the API names fields (`styling.primaryColor.light`). */
export function describeError(root: string, error: ErrorObject): string {
  const path = [root, ...error.instancePath.split('/').filter(Boolean)].join('.');
  switch (error.keyword) {
    case 'additionalProperties':
      return `${path}.${String(error.params.additionalProperty)} is not a known field`;
    case 'required':
      return `${path}.${String(error.params.missingProperty)} is required`;
    case 'enum':
      return `${path} must be one of ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}

/** Checks settings given by a client; a ValidationFailed names the first field that is wrong. */
export function checkCustomization(settings: unknown): Record<string, unknown> {
  if (!validateCustomization(settings)) {
    throw new ValidationFailed(describeError('customization', validateCustomization.errors![0]!));
  }
  return settings as Record<string, unknown>;
}
