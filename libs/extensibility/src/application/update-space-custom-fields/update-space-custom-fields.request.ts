import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { ValidationFailed } from '@app/kernel';
import { CUSTOM_FIELD_LIMITS, type CustomFieldValue } from '../../domain';

export class UpdateSpaceCustomFieldsRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      required: ['value'],
      properties: {
        value: {
          nullable: true,
          oneOf: [
            { type: 'string' },
            { type: 'number' },
            { type: 'boolean' },
            { type: 'array', items: { type: 'string' } },
          ],
        },
      },
    },
    maxProperties: CUSTOM_FIELD_LIMITS.perUpdate,
    description: 'Field name → {value}. Fields left out keep their values; {value: null} removes one. All or nothing.',
  })
  @IsObject()
  values!: Record<string, unknown>;
}

const isValue = (value: unknown): value is CustomFieldValue | null =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  (Array.isArray(value) && value.every((one) => typeof one === 'string'));

/**
 * Reads the `values` map: each entry must be `{value}` with nothing else, the value one of the forms the spec
 * allows (or null). Whether it fits its field is the decider's rule.
 */
export function readValues(values: Record<string, unknown>): Record<string, CustomFieldValue | null> {
  const read: Record<string, CustomFieldValue | null> = {};
  for (const [name, entry] of Object.entries(values)) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new ValidationFailed(`values.${name}: must be an object {value}`);
    }
    const extra = Object.keys(entry).find((key) => key !== 'value');
    if (extra !== undefined) throw new ValidationFailed(`values.${name}.${extra}: unknown field`);
    if (!('value' in entry)) throw new ValidationFailed(`values.${name}.value: required (null removes the value)`);
    const value = (entry as { value: unknown }).value;
    if (!isValue(value)) {
      throw new ValidationFailed(
        `values.${name}.value: must be a string, a number, a boolean, a list of strings or null`,
      );
    }
    read[name] = value;
  }
  return read;
}
