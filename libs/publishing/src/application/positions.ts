import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { type Position } from '../domain';

export class SiteSpacePointer {
  @ApiProperty({ enum: ['site-space'] })
  @IsIn(['site-space'])
  type!: 'site-space';

  @ApiProperty({ description: 'ID of a site space of this site' })
  @IsString()
  @Length(1, 100)
  siteSpace!: string;
}

export class SectionPointer {
  @ApiProperty({ enum: ['site-section'] })
  @IsIn(['site-section'])
  type!: 'site-section';

  @ApiProperty({ description: 'ID of a section of this site' })
  @IsString()
  @Length(1, 100)
  siteSection!: string;
}

export class StructurePointer {
  @ApiProperty({ enum: ['site-section', 'site-section-group'] })
  @IsIn(['site-section', 'site-section-group'])
  type!: 'site-section' | 'site-section-group';

  @ApiProperty({ description: 'ID of a section or section group of this site' })
  @IsString()
  @Length(1, 100)
  id!: string;
}

function positionOf<P>(ofClass: new () => P) {
  class PositionOf {
    @ApiPropertyOptional({ type: ofClass })
    @OptionalField()
    @IsObject()
    @ValidateNested()
    @Type(() => ofClass)
    before?: P;

    @ApiPropertyOptional({ type: ofClass })
    @OptionalField()
    @IsObject()
    @ValidateNested()
    @Type(() => ofClass)
    after?: P;
  }
  return PositionOf;
}

export class SiteSpacePosition extends positionOf(SiteSpacePointer) {}
export class SectionPosition extends positionOf(SectionPointer) {}
export class StructurePosition extends positionOf(StructurePointer) {}

/** The domain's position from a request's, given how to read an id out of a pointer. */
export function toPosition<P>(
  position: { before?: P; after?: P } | undefined,
  idOf: (pointer: P) => string,
): Position | undefined {
  if (!position) return undefined;
  return {
    ...(position.before ? { before: idOf(position.before) } : {}),
    ...(position.after ? { after: idOf(position.after) } : {}),
  };
}
