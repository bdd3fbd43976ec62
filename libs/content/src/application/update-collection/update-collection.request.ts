import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { DEFAULT_LEVELS, type DefaultLevel } from '@app/kernel/domain';

export class UpdateCollectionRequest {
  @ApiPropertyOptional({ maxLength: 50 })
  @OptionalField()
  @IsString()
  @Length(1, 50)
  title?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalField()
  @IsString()
  @MaxLength(100)
  description?: string;

  @ApiPropertyOptional({ enum: DEFAULT_LEVELS, nullable: true, description: 'A role, "inherit", or null' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;
}
