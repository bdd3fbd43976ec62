import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { DEFAULT_LEVELS, type DefaultLevel } from '@app/kernel/domain';

export class UpdateSpaceRequest {
  @ApiPropertyOptional({ maxLength: 50 })
  @OptionalField()
  @IsString()
  @Length(1, 50)
  title?: string;

  @ApiPropertyOptional({ maxLength: 50, nullable: true, description: 'An emoji; null removes it' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(50)
  emoji?: string | null;

  @ApiPropertyOptional({ enum: ['live', 'locked'], description: 'Locked spaces refuse content edits (admin role)' })
  @OptionalField()
  @IsIn(['live', 'locked'])
  editMode?: 'live' | 'locked';

  @ApiPropertyOptional({ enum: DEFAULT_LEVELS, nullable: true, description: 'A role, "inherit", or null (admin role)' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;
}
