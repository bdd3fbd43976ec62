import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but when present it must pass its validators: unlike `@IsOptional()`, `null` is not
 * waved through (use `@IsOptional()` only for fields where null means "clear it").
 */
export const OptionalField = () => ValidateIf((_object, value) => value !== undefined);
