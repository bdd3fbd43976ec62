import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';

export class CreateCollectionRequest {
  @ApiPropertyOptional({ maxLength: 50, description: 'Title (default "Untitled")' })
  @OptionalField()
  @IsString()
  @Length(1, 50)
  title?: string;

  @ApiPropertyOptional({ description: 'ID of the parent collection (default: the top level)' })
  @OptionalField()
  @IsString()
  @Length(1, 100)
  parent?: string;
}
