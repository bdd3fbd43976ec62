import { ValidationFailed } from '@app/kernel';
import { type IntegrationAsset } from '../../domain';

/** The most bytes one image may have once decoded. */
export const IMAGE_MAX_BYTES = 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes a base64 image of a publication (`icon`, `previewImages[i]`) and tells its type from its bytes, never
 * from what the caller says: a PNG or JPEG signature, or a text that parses as an `<svg>` document. Anything else,
 * a broken base64 text or more than {@link IMAGE_MAX_BYTES} bytes is a 400 naming the field.
 */
export function readImage(
  field: string,
  text: string,
): { bytes: Buffer; contentType: IntegrationAsset['contentType'] } {
  // A data URL prefix is a common way to send base64 images: accept it, but the bytes decide the type.
  const payload = text.replace(/^data:image\/[a-z+.-]+;base64,/i, '').replace(/\s+/g, '');
  if (payload.length === 0 || payload.length % 4 !== 0 || !BASE64.test(payload)) {
    throw new ValidationFailed(`${field}: must be a base64-encoded PNG, JPEG or SVG image`);
  }
  if ((payload.length / 4) * 3 > IMAGE_MAX_BYTES + 2) {
    throw new ValidationFailed(`${field}: must be at most ${IMAGE_MAX_BYTES} bytes (1 MB)`);
  }
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > IMAGE_MAX_BYTES) {
    throw new ValidationFailed(`${field}: must be at most ${IMAGE_MAX_BYTES} bytes (1 MB)`);
  }
  const contentType = imageType(bytes);
  if (!contentType) throw new ValidationFailed(`${field}: must be a PNG, JPEG or SVG image`);
  return { bytes, contentType };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type the bytes show, or undefined when they are no PNG, JPEG or SVG image. */
export function imageType(bytes: Buffer): IntegrationAsset['contentType'] | undefined {
  if (bytes.length > PNG.length && bytes.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return isSvgDocument(bytes) ? 'image/svg+xml' : undefined;
}

const NAME = '[A-Za-z_][\\w.:-]*';
const ATTRIBUTES = `(?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*\\s*`;
const START_TAG = new RegExp(`<(${NAME})${ATTRIBUTES}(/?)>`, 'y');
const END_TAG = new RegExp(`</(${NAME})\\s*>`, 'y');
const TEXT = /[^<]+/y;

/** The match of a sticky pattern exactly at `at`. */
function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/**
 * Whether the bytes are a well-formed XML document whose root element is `svg`: UTF-8, an optional XML
 * declaration, comments and processing instructions, a DOCTYPE without an internal subset (no entity tricks),
 * then one element tree with matching tags and quoted attributes. It does not judge what the SVG draws; the file
 * is served with a sandboxing Content-Security-Policy, so scripts in it never run.
 */
export function isSvgDocument(bytes: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  text = text.replace(/^\uFEFF/, '');
  const open: string[] = [];
  let rootSeen = false;
  let at = 0;
  while (at < text.length) {
    let match: RegExpExecArray | null;
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end < 0) return false;
      at = end + 3;
    } else if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at + 2);
      if (end < 0) return false;
      at = end + 2;
    } else if (text.startsWith('<![CDATA[', at)) {
      if (open.length === 0) return false;
      const end = text.indexOf(']]>', at + 9);
      if (end < 0) return false;
      at = end + 3;
    } else if (/^<!doctype/i.test(text.slice(at, at + 9))) {
      const end = text.indexOf('>', at);
      if (end < 0 || rootSeen) return false;
      if (text.slice(at, end).includes('[')) return false;
      at = end + 1;
    } else if ((match = matchAt(END_TAG, text, at))) {
      if (open.pop() !== match[1]) return false;
      at += match[0].length;
    } else if ((match = matchAt(START_TAG, text, at))) {
      if (open.length === 0) {
        if (rootSeen || match[1] !== 'svg') return false;
        rootSeen = true;
      }
      if (match[2] !== '/') open.push(match[1]);
      at += match[0].length;
    } else if ((match = matchAt(TEXT, text, at))) {
      if (open.length === 0 && match[0].trim() !== '') return false;
      at += match[0].length;
    } else {
      return false;
    }
  }
  return rootSeen && open.length === 0;
}
