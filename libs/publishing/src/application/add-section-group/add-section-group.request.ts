import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { GROUP_TITLE, ICON_MAX, LIMITS } from '../../domain';

export class AddSectionGroupRequest {
  @ApiProperty({ minLength: GROUP_TITLE.min, maxLength: GROUP_TITLE.max })
  @IsString()
  @Length(GROUP_TITLE.min, GROUP_TITLE.max)
  title!: string;

  @ApiPropertyOptional({ maxLength: ICON_MAX })
  @OptionalField()
  @IsString()
  @Length(1, ICON_MAX)
  icon?: string;

  @ApiPropertyOptional({ type: [String], description: 'IDs of sections that move into the group, in this order' })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.sections)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  sections?: string[];
}
