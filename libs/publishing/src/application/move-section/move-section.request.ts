import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { SectionPosition } from '../positions';

export class MoveSectionRequest {
  @ApiPropertyOptional({
    type: SectionPosition,
    description: 'Before or after another section (joining its group, if any); default the end of the site',
  })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => SectionPosition)
  position?: SectionPosition;
}
