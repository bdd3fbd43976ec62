import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { DESCRIPTION_MAX, ICON_MAX, PATH_MAX, SECTION_TITLE } from '../../domain';
import { CONDITION_MAX } from '../condition';

export class UpdateSectionRequest {
  @ApiPropertyOptional({ minLength: SECTION_TITLE.min, maxLength: SECTION_TITLE.max })
  @OptionalField()
  @IsString()
  @Length(SECTION_TITLE.min, SECTION_TITLE.max)
  title?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: PATH_MAX, description: 'Unique within the site' })
  @OptionalField()
  @IsString()
  @Length(1, PATH_MAX)
  path?: string;

  @ApiPropertyOptional({ description: 'ID of a site space of this section that visitors land on' })
  @OptionalField()
  @IsString()
  @Length(1, 100)
  defaultSiteSpace?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX, description: 'null removes it' })
  @IsOptional()
  @IsString()
  condition?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @Length(1, ICON_MAX)
  icon?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @Length(0, DESCRIPTION_MAX)
  description?: string | null;
}
