import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { StructurePosition } from '../positions';

export class MoveSectionGroupRequest {
  @ApiPropertyOptional({
    type: StructurePosition,
    description: 'Before or after a top-level section or another group; default the end of the site',
  })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => StructurePosition)
  position?: StructurePosition;
}
