import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { SiteSpacePosition } from '../positions';

export class MoveSiteSpaceRequest {
  @ApiPropertyOptional({ type: SiteSpacePosition, description: 'Before or after another site space; default the end' })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpacePosition)
  position?: SiteSpacePosition;
}
