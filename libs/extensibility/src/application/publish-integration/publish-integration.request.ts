import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, IsArray, IsIn, IsObject, IsString } from 'class-validator';
import { OptionalField } from '@app/kernel';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_LIMITS as LIMITS,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
} from '../../domain';

/**
 * The spec's PublishIntegration body. Types are checked here; every limit, the parts of blocks, content sources
 * and configurations (unknown fields included) are checked by the domain, which names the field.
 */
export class PublishIntegrationRequest {
  @ApiPropertyOptional({ enum: ['v1', 'v2'], default: 'v1' })
  @OptionalField()
  @IsIn(['v1', 'v2'])
  runtime?: 'v1' | 'v2';

  @ApiPropertyOptional({ format: 'byte', description: 'A PNG, JPEG or SVG image of at most 1 MB, in base64' })
  @OptionalField()
  @IsString()
  icon?: string;

  @ApiProperty({ minLength: LIMITS.title.min, maxLength: LIMITS.title.max })
  @IsString()
  title!: string;

  @ApiProperty({ maxLength: LIMITS.description })
  @IsString()
  description!: string;

  @ApiPropertyOptional({ maxLength: LIMITS.summary, description: 'Markdown' })
  @OptionalField()
  @IsString()
  summary?: string;

  @ApiPropertyOptional({ type: [String], format: 'byte', maxItems: LIMITS.previewImages })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.previewImages)
  @IsString({ each: true })
  previewImages?: string[];

  @ApiPropertyOptional({ enum: INTEGRATION_VISIBILITIES, default: 'private' })
  @OptionalField()
  @IsIn(INTEGRATION_VISIBILITIES)
  visibility?: (typeof INTEGRATION_VISIBILITIES)[number];

  @ApiPropertyOptional({ enum: INTEGRATION_TARGETS, default: 'all' })
  @OptionalField()
  @IsIn(INTEGRATION_TARGETS)
  target?: (typeof INTEGRATION_TARGETS)[number];

  @ApiProperty({ type: [String], enum: INTEGRATION_SCOPES })
  @IsArray()
  @IsString({ each: true })
  scopes!: string[];

  @ApiPropertyOptional({ type: [String], enum: INTEGRATION_CATEGORIES })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  categories?: string[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  @OptionalField()
  @IsArray()
  @IsObject({ each: true })
  blocks?: object[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  @OptionalField()
  @IsArray()
  @IsObject({ each: true })
  contentSources?: object[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, maxItems: LIMITS.externalLinks })
  @OptionalField()
  @IsArray()
  @IsObject({ each: true })
  externalLinks?: object[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '{account, space, site}' })
  @OptionalField()
  @IsObject()
  configurations?: object;

  @ApiProperty({ description: 'Content of the script; stored by its SHA-256, never run by this service' })
  @IsString()
  script!: string;

  @ApiProperty({ description: 'ID or hostname of the publishing organization (the caller must be its admin)' })
  @IsString()
  organization!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: LIMITS.secrets,
    description: 'Encrypted at rest (AES-256-GCM) and never returned; left out, the secrets before are kept',
  })
  @OptionalField()
  @IsObject()
  secrets?: Record<string, unknown>;

  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'object' }] })
  @Allow()
  contentSecurityPolicy?: unknown;
}
