import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';

export class AddSiteSpaceRequest {
  @ApiProperty({ description: 'ID of the space to publish' })
  @IsString()
  @Length(1, 100)
  spaceId!: string;

  @ApiPropertyOptional({
    description: 'Section to add it to (default: the default section, or the root without sections)',
  })
  @OptionalField()
  @IsString()
  @Length(1, 100)
  sectionId?: string;
}
