import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, MaxLength } from 'class-validator';
import { OptionalField } from '@app/kernel';

export class CreateSpaceRequest {
  @ApiPropertyOptional({ maxLength: 50, description: 'Title (default "Untitled")' })
  @OptionalField()
  @IsString()
  @Length(1, 50)
  title?: string;

  @ApiPropertyOptional({ maxLength: 50, description: 'An emoji' })
  @OptionalField()
  @IsString()
  @MaxLength(50)
  emoji?: string;

  @ApiPropertyOptional({ description: 'ID of the parent collection (default: the top level)' })
  @OptionalField()
  @IsString()
  @Length(1, 100)
  parent?: string;

  @ApiPropertyOptional({ enum: ['live', 'locked'] })
  @OptionalField()
  @IsIn(['live', 'locked'])
  editMode?: 'live' | 'locked';
}
