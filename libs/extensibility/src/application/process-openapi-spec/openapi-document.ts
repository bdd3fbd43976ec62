import { validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';

/**
 * YAML anchors may be used a few times (specs reuse a response or a parameter block), but a document made of
 * aliases of aliases (the "billion laughs") is refused before it is expanded.
 */
const MAX_ALIASES = 100;

export type ParsedDocument =
  | {
      ok: true;
      format: 'json' | 'yaml';
      document: Record<string, unknown>;
      specification: 'openapi' | 'swagger';
      specVersion: string;
      title?: string;
    }
  | { ok: false; errors: string[] };

/** Text of a document: UTF-8 unless the server named another charset it knows; a byte order mark is dropped. */
export function decodeText(bytes: Buffer, charset?: string): string {
  let text: string;
  try {
    text = new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    text = new TextDecoder('utf-8').decode(bytes);
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** JSON when it reads as JSON, YAML otherwise (JSON is YAML too, but the JSON parser is faster and stricter). */
export function readDocument(text: string): { format: 'json' | 'yaml'; value: unknown } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return { format: 'json', value: JSON.parse(text) };
    } catch {
      // not JSON after all (a YAML flow mapping): read as YAML below
    }
  }
  return {
    format: 'yaml',
    value: parseYaml(text, { maxAliasCount: MAX_ALIASES, uniqueKeys: true, prettyErrors: false }),
  };
}

/**
 * Parses and validates an OpenAPI 3.0 / 3.1 or Swagger 2.0 document with @readme/openapi-parser. References to
 * other files or URLs are never followed (`resolve.external: false`): only `#/...` references inside the document
 * are checked, so processing cannot be made to read the service's files or reach its network.
 */
export async function parseOpenApiDocument(text: string): Promise<ParsedDocument> {
  let read: { format: 'json' | 'yaml'; value: unknown };
  try {
    read = readDocument(text);
  } catch (error) {
    return { ok: false, errors: [`not JSON or YAML: ${(error as Error).message}`] };
  }
  const value = read.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: ['the document is not an object'] };
  }
  const document = value as Record<string, unknown>;
  const declared = typeof document.openapi === 'string' ? document.openapi : document.swagger;
  if (typeof declared !== 'string' || !/^(2\.0|3\.[01]\.\d+)$/.test(declared)) {
    return {
      ok: false,
      errors: ['the document is not OpenAPI 3.0, 3.1 or Swagger 2.0 (no `openapi: 3.x.y` or `swagger: "2.0"` field)'],
    };
  }
  let result: Awaited<ReturnType<typeof validate>>;
  try {
    // the validator dereferences in place: it gets a copy, the caller keeps the document as written
    result = await validate(structuredClone(document) as never, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    });
  } catch (error) {
    return { ok: false, errors: [(error as Error).message] };
  }
  if (!result.valid) {
    const errors = result.errors.map((one) => one.message);
    if (result.additionalErrors > 0) errors.push(`and ${result.additionalErrors} more errors`);
    return { ok: false, errors };
  }
  const info = document.info as { title?: unknown } | undefined;
  return {
    ok: true,
    format: read.format,
    document,
    specification: declared === '2.0' ? 'swagger' : 'openapi',
    specVersion: declared,
    ...(typeof info?.title === 'string' ? { title: info.title } : {}),
  };
}
