import Ajv from 'ajv';
import { ValidationFailed } from '@app/kernel';
import { describeError } from './customization';

/**
 * An adaptive-content schema describes the claims a site's visitors carry. It must be a valid JSON Schema
 * (draft-07) and have the spec's claims shape: an object whose properties are claims (boolean, string, string
 * enumeration, number, arrays of those, or nested objects of claims), each with a description, with
 * `additionalProperties: false`; `unsigned` holds claims that are not signed.
 */
const primitive = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'description'],
      properties: { type: { const: 'boolean' }, description: { type: 'string', maxLength: 1024 } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'description'],
      properties: { type: { const: 'number' }, description: { type: 'string', maxLength: 1024 } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'description'],
      properties: {
        type: { const: 'string' },
        description: { type: 'string', maxLength: 1024 },
        enum: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', maxLength: 256 } },
      },
    },
  ],
};

const claimsShape = {
  $id: 'quire:adaptive-claims',
  definitions: {
    claim: {
      oneOf: [
        primitive,
        {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'description', 'items'],
          properties: { type: { const: 'array' }, description: { type: 'string', maxLength: 1024 }, items: primitive },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'description', 'properties', 'additionalProperties'],
          properties: {
            type: { const: 'object' },
            description: { type: 'string', maxLength: 1024 },
            properties: { $ref: '#/definitions/claims' },
            additionalProperties: { const: false },
          },
        },
      ],
    },
    claims: {
      type: 'object',
      maxProperties: 100,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
      additionalProperties: { $ref: '#/definitions/claim' },
    },
  },
  type: 'object',
  additionalProperties: false,
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    additionalProperties: { const: false },
    properties: {
      type: 'object',
      maxProperties: 101,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
      properties: {
        unsigned: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'description', 'properties', 'additionalProperties'],
          properties: {
            type: { const: 'object' },
            // the spec fixes this one text
            description: { const: 'Unsigned claims of the site visitor.' },
            properties: { $ref: '#/definitions/claims' },
            additionalProperties: { const: false },
          },
        },
      },
      additionalProperties: { $ref: '#/definitions/claim' },
    },
  },
};

const ajv = new Ajv({ allErrors: false, strict: false });
const validateShape = ajv.compile(claimsShape);
const isDraft07Schema = ajv.getSchema('http://json-schema.org/draft-07/schema')!;

/** Checks a client's adaptive schema; a ValidationFailed says what is wrong. */
export function checkAdaptiveSchema(jsonSchema: unknown): Record<string, unknown> {
  if (!isDraft07Schema(jsonSchema)) {
    throw new ValidationFailed(
      `jsonSchema is not a valid JSON Schema: ${describeError('jsonSchema', isDraft07Schema.errors![0]!)}`,
    );
  }
  if (!validateShape(jsonSchema)) {
    throw new ValidationFailed(
      `jsonSchema does not describe visitor claims: ${describeError('jsonSchema', validateShape.errors![0]!)}`,
    );
  }
  return jsonSchema as Record<string, unknown>;
}
