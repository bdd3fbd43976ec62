import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { ICON_MAX, SECTION_TITLE } from '../../domain';

export class AddSectionRequest {
  @ApiProperty({ description: "ID of the space that becomes the section's first site space" })
  @IsString()
  @Length(1, 100)
  spaceId!: string;

  @ApiPropertyOptional({
    minLength: SECTION_TITLE.min,
    maxLength: SECTION_TITLE.createMax,
    description: "Default: the space's title",
  })
  @OptionalField()
  @IsString()
  @Length(SECTION_TITLE.min, SECTION_TITLE.createMax)
  title?: string;

  @ApiPropertyOptional({ maxLength: ICON_MAX })
  @OptionalField()
  @IsString()
  @Length(1, ICON_MAX)
  icon?: string;
}
