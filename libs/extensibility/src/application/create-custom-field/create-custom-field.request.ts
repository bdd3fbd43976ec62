import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn, IsString } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { CUSTOM_FIELD_LIMITS as LIMITS, CUSTOM_FIELD_TYPES, type CustomFieldType } from '../../domain';

/** Types and presence here; lengths, the name pattern and the options rules are the decider's (in code points). */
export class CreateCustomFieldRequest {
  @ApiProperty({ minLength: 1, maxLength: LIMITS.name, pattern: '^[a-z_\\-0-9]+$' })
  @IsString()
  name!: string;

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES })
  @IsIn(CUSTOM_FIELD_TYPES)
  type!: CustomFieldType;

  @ApiPropertyOptional({ maxLength: LIMITS.title, description: 'Defaults to the name' })
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
    description: 'Required for select:single and select:multi fields, refused for the others',
  })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  options?: string[];
}
