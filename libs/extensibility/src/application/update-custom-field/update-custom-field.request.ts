import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsString } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { CUSTOM_FIELD_LIMITS as LIMITS } from '../../domain';

/** `name` and `type` cannot change: sending them is an unknown field (400). */
export class UpdateCustomFieldRequest {
  @ApiPropertyOptional({ maxLength: LIMITS.title })
  @OptionalField()
  @IsString()
  title?: string;

  @ApiPropertyOptional({ maxLength: LIMITS.description })
  @OptionalField()
  @IsString()
  description?: string;

  @ApiPropertyOptional({ maxLength: LIMITS.placeholder })
  @OptionalField()
  @IsString()
  placeholder?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: LIMITS.options,
    description:
      'Select fields only. Narrowing the options leaves values already stored readable; new values must use the new options.',
  })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  options?: string[];
}
