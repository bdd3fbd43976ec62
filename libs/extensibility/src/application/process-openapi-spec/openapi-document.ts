/**
 * YAML anchors may be used a few times (specs reuse a response or a parameter block), but a document made of
 * aliases of aliases (the "billion laughs") is refused before it is expanded.
 */
export const MAX_ALIASES = 100;

/** What reading and validating a document concluded (see ./openapi-validator.ts). */
export type CheckedDocument =
  | { ok: true; format: 'json' | 'yaml'; specification: 'openapi' | 'swagger'; specVersion: string; title?: string }
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

/**
 * JSON when it reads as JSON, YAML otherwise (JSON is YAML too, but the JSON parser is faster and stricter). The
 * validator's worker reads documents the same way (its code is plain JavaScript, so it repeats these lines).
 */
export async function readDocument(text: string): Promise<{ format: 'json' | 'yaml'; value: unknown }> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return { format: 'json', value: JSON.parse(text) };
    } catch {
      // not JSON after all (a YAML flow mapping): read as YAML below
    }
  }
  // the YAML parser is loaded by the first YAML document read here, not at start
  const { parse: parseYaml } = await import('yaml');
  return {
    format: 'yaml',
    value: parseYaml(text, { maxAliasCount: MAX_ALIASES, uniqueKeys: true, prettyErrors: false }),
  };
}
