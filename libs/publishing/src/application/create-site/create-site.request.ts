import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { SITE_TYPES, SITE_TITLE, SITE_VISIBILITIES, type SiteType, type SiteVisibility } from '../../domain';

export const MAX_INITIAL_SPACES = 100;

export class CreateSiteRequest {
  @ApiPropertyOptional({ enum: SITE_TYPES, default: 'basic' })
  @OptionalField()
  @IsIn(SITE_TYPES)
  type?: SiteType;

  @ApiPropertyOptional({ minLength: SITE_TITLE.min, maxLength: SITE_TITLE.max, description: 'Default "Docs site"' })
  @OptionalField()
  @IsString()
  @Length(SITE_TITLE.min, SITE_TITLE.max)
  title?: string;

  @ApiPropertyOptional({ enum: SITE_VISIBILITIES, default: 'public' })
  @OptionalField()
  @IsIn(SITE_VISIBILITIES)
  visibility?: SiteVisibility;

  @ApiPropertyOptional({
    oneOf: [{ type: 'array', items: { type: 'string' }, maxItems: MAX_INITIAL_SPACES }, { enum: ['empty', 'sample'] }],
    description: 'Spaces to publish (their ids), or "empty" / "sample" to create a new space for the site',
  })
  @OptionalField()
  @ValidateIf((_object, value) => !Array.isArray(value))
  @IsIn(['empty', 'sample'], { message: 'spaces must be a list of space ids, "empty" or "sample"' })
  spaces?: string[] | 'empty' | 'sample';
}
