import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Validates responses against the official GitBook OpenAPI documents shipped in `@gitbook/api`: 0.137.0 (closest
 * to the seed) first, then 0.202.0 for what 0.137.0 lacks (organization creation), then 0.91.0 for custom fields. An operation is found by
 * method and path template; its response schema for the status is compiled once.
 */
interface Spec {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
}

/**
 * OpenAPI 3.0 marks nullable schemas with `nullable: true`, which JSON Schema does not know (and Ajv refuses
 * without a `type`): rewrite each such schema as "this schema, or null".
 */
function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = withoutNullable(value);
  if (typeof copy.nullable !== 'boolean') return copy;
  const nullable = copy.nullable;
  delete copy.nullable;
  return nullable ? { anyOf: [copy, { type: 'null' }] } : copy;
}

/** Keeps only the paths of a spec that `keep` accepts. */
function onlyPaths(spec: Spec, keep: (template: string) => boolean): Spec {
  return { ...spec, paths: Object.fromEntries(Object.entries(spec.paths).filter(([template]) => keep(template))) };
}

/**
 * 0.91.0 is the last spec with custom fields (removed in 0.130.0): it is consulted for those operations only, so
 * that routes it describes differently from the newer specs are still judged by them.
 */
const SPECS: { id: string; spec: Spec }[] = [
  { id: 'gitbook-0137', spec: withoutNullable(require('gitbook-spec-0137/spec/openapi.json')) as Spec },
  { id: 'gitbook-0202', spec: withoutNullable(require('gitbook-spec-0202/spec/openapi.json')) as Spec },
  {
    id: 'gitbook-0091',
    spec: onlyPaths(withoutNullable(require('gitbook-spec-0091/spec/openapi.json')) as Spec, (template) =>
      template.includes('/custom-fields'),
    ),
  },
];

/**
 * Paths where the seed describes another resource than the spec, so the spec's schema does not apply: the seed's
 * translation settings `{title, languages}` against the spec's translation jobs (SPEC-NOTES, "translation
 * settings").
 */
const NOT_THE_SPECS_RESOURCE = [
  /^\/orgs\/[^/]+\/translations(\/[^/]+)?$/,
  // the organization feed and the catalogue of public events are this service's own (issue 14)
  /^\/orgs\/[^/]+\/events$/,
  /^\/events\/schemas$/,
];

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, discriminator: false });
addFormats(ajv);
// Formats of the spec that JSON Schema does not define: accepted as strings.
ajv.addFormat('emoji', true);
ajv.addFormat('icon', true);
for (const { id, spec } of SPECS) ajv.addSchema(spec as object, id);

interface Operation {
  specId: string;
  template: string;
  method: string;
  operationId: string;
  pattern: RegExp;
  responses: Record<string, unknown>;
}

const operations: Operation[] = SPECS.flatMap(({ id, spec }) =>
  Object.entries(spec.paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => typeof operation === 'object' && operation?.operationId)
      .map(([method, operation]) => ({
        specId: id,
        template,
        method: method.toUpperCase(),
        operationId: operation.operationId!,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        responses: operation.responses ?? {},
      })),
  ),
);

const compiled = new Map<string, ValidateFunction>();

/** Escapes a path for a JSON pointer inside a `$ref` URI fragment. */
const pointer = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

export interface ConformanceResult {
  operationId: string;
  specId: string;
  errors: string[];
}

/**
 * The official operation for a request path (without `/v1`), preferring literal segments over templates and the
 * older spec over the newer one.
 */
export function findOperation(method: string, path: string): Operation | undefined {
  const candidates = operations.filter((op) => op.method === method && op.pattern.test(path));
  candidates.sort(
    (a, b) =>
      (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0) ||
      SPECS.findIndex((s) => s.id === a.specId) - SPECS.findIndex((s) => s.id === b.specId),
  );
  return candidates[0];
}

/** Validates a 2xx JSON body; returns null when the spec has no such operation (beyond-the-seed routes). */
export function checkResponse(method: string, path: string, status: number, body: unknown): ConformanceResult | null {
  if (NOT_THE_SPECS_RESOURCE.some((pattern) => pattern.test(path))) return null;
  const operation = findOperation(method, path);
  if (!operation) return null;
  const response = operation.responses[String(status)] as
    { content?: Record<string, { schema?: unknown }> } | undefined;
  if (!response) {
    return {
      operationId: operation.operationId,
      specId: operation.specId,
      errors: [`status ${status} is not documented`],
    };
  }
  if (!response.content?.['application/json']?.schema)
    return { operationId: operation.operationId, specId: operation.specId, errors: [] };
  const key = `${operation.specId} ${operation.method} ${operation.template} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const ref =
      `${operation.specId}#/paths/${pointer(operation.template)}/${operation.method.toLowerCase()}` +
      `/responses/${status}/content/${pointer('application/json')}/schema`;
    validate = ajv.compile({ $ref: ref });
    compiled.set(key, validate);
  }
  const ok = validate(body);
  return {
    operationId: operation.operationId,
    specId: operation.specId,
    errors: ok
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`),
  };
}
