import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/**
 * An optional `true`/`false` query parameter. Only those two words become booleans; anything else (`1`, `yes`,
 * an empty value) stays a string and is refused with a 400 that names the parameter.
 */
export const QueryFlag = (defaultValue: boolean | undefined, description?: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: Boolean,
      ...(defaultValue !== undefined ? { default: defaultValue } : {}),
      ...(description ? { description } : {}),
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean(),
  );
