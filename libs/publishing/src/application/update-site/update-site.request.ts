import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalField } from '@app/kernel';
import { BASENAME_MAX, PROXY_PATTERN, SITE_TITLE, SITE_VISIBILITIES, type SiteVisibility } from '../../domain';

export class AdaptiveContentSetting {
  @ApiPropertyOptional()
  @IsBoolean()
  enabled!: boolean;
}

export class UpdateSiteRequest {
  @ApiPropertyOptional({ minLength: SITE_TITLE.min, maxLength: SITE_TITLE.max })
  @OptionalField()
  @IsString()
  @Length(SITE_TITLE.min, SITE_TITLE.max)
  title?: string;

  @ApiPropertyOptional({ enum: SITE_VISIBILITIES })
  @OptionalField()
  @IsIn(SITE_VISIBILITIES)
  visibility?: SiteVisibility;

  @ApiPropertyOptional({ minLength: 1, maxLength: BASENAME_MAX, description: 'Path of the site under its host' })
  @OptionalField()
  @IsString()
  @Length(1, BASENAME_MAX)
  basename?: string;

  @ApiPropertyOptional({ type: AdaptiveContentSetting })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => AdaptiveContentSetting)
  adaptiveContent?: AdaptiveContentSetting;

  @ApiPropertyOptional({ enum: ['excluded', 'included'] })
  @OptionalField()
  @IsIn(['excluded', 'included'])
  agentsContext?: 'excluded' | 'included';

  @ApiPropertyOptional({
    description: 'ID of the site space visitors land on (at the root, or in the default section)',
  })
  @OptionalField()
  @IsString()
  @Length(1, 100)
  defaultSiteSpace?: string;

  @ApiPropertyOptional({ description: 'ID of the section visitors land on' })
  @OptionalField()
  @IsString()
  @Length(1, 100)
  defaultSiteSection?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 512,
    pattern: PROXY_PATTERN.source,
    description: 'Serve the site under a path of your own domain, such as example.com/docs; null removes it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(PROXY_PATTERN, { message: 'proxy must be a host name with a path, such as example.com/docs' })
  proxy?: string | null;
}
