import secureJson from 'secure-json-parse';
import { ValidationFailed } from '../domain/errors';

/** What a request body may hold, checked while it is read and before anything else looks at it. */
export interface JsonBodyLimits {
  /** Arrays and objects inside one another, the outermost counting as 1. */
  maxDepth: number;
  /** Keys in any one object. */
  maxKeys: number;
}

export const DEFAULT_JSON_BODY_LIMITS: JsonBodyLimits = { maxDepth: 100, maxKeys: 1000 };

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COLON = 0x3a; // :

/**
 * Reads a JSON request body: one linear pass refuses nesting deeper than `maxDepth` and objects with more than
 * `maxKeys` keys (the validators downstream cost time that grows faster than the key count and recurse once per
 * level), then the text is parsed with prototype poisoning refused, then every string (keys included) must be
 * well-formed Unicode: an unpaired surrogate cannot be stored or counted. An empty body reads as `undefined`.
 * Every refusal is a validation error naming what was wrong.
 */
export function parseJsonBody(text: string, limits: JsonBodyLimits = DEFAULT_JSON_BODY_LIMITS): unknown {
  if (text.trim() === '') return undefined;
  checkShape(text, limits);
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new ValidationFailed(
      error instanceof SyntaxError && /prototype/i.test(error.message)
        ? 'The request body may not set __proto__ or constructor.prototype'
        : 'The request body is not valid JSON',
    );
  }
  if (SURROGATE_ESCAPE.test(text)) checkStrings(value, []);
  return value;
}

function checkShape(text: string, { maxDepth, maxKeys }: JsonBodyLimits): void {
  // keys[d] counts the keys of the object open at depth d (-1 for an array)
  const keys = new Int32Array(maxDepth + 1);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    switch (code) {
      case QUOTE:
        i = closingQuote(text, i);
        if (i < 0) return; // an unterminated string: the parser says what is wrong
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (++depth > maxDepth) {
          throw new ValidationFailed(`The request body nests arrays and objects deeper than ${maxDepth} levels`);
        }
        keys[depth] = code === OPEN_OBJECT ? 0 : -1;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth > 0) depth--;
        break;
      case COLON:
        if (depth > 0 && keys[depth] >= 0 && ++keys[depth] > maxKeys) {
          throw new ValidationFailed(`An object in the request body has more than ${maxKeys} keys`);
        }
        break;
    }
  }
}

/** The index of the quote that ends the string opened at `open` (one not escaped by a backslash), or -1. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/**
 * A body decoded from UTF-8 holds no unpaired surrogate of its own: one can only come from a `\uD800`-`\uDFFF`
 * escape, so the parsed value is walked only when the text has one.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Walks the parsed body (its depth is bounded by now); `path` holds the keys down to `value`, for the message. */
function checkStrings(value: unknown, path: (string | number)[]): void {
  if (typeof value === 'string') {
    if (UNPAIRED_SURROGATE.test(value)) throw unpaired(path);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (typeof value[i] === 'object' || typeof value[i] === 'string') {
        path.push(i);
        checkStrings(value[i], path);
        path.pop();
      }
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (UNPAIRED_SURROGATE.test(key)) throw unpaired(path);
      path.push(key);
      checkStrings((value as Record<string, unknown>)[key], path);
      path.pop();
    }
  }
}

function unpaired(path: (string | number)[]): ValidationFailed {
  const where =
    path.length === 0
      ? 'the body'
      : path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i ? `.${key}` : key)).join('');
  return new ValidationFailed(`${where}: contains an unpaired UTF-16 surrogate (not valid Unicode text)`);
}
