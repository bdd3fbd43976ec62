import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { GROUP_TITLE, ICON_MAX } from '../../domain';

export class UpdateSectionGroupRequest {
  @ApiPropertyOptional({ minLength: GROUP_TITLE.min, maxLength: GROUP_TITLE.max })
  @OptionalField()
  @IsString()
  @Length(GROUP_TITLE.min, GROUP_TITLE.max)
  title?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX, description: 'null removes it' })
  @IsOptional()
  @IsString()
  @Length(1, ICON_MAX)
  icon?: string | null;
}
