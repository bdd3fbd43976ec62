import { OptionalField } from '@app/kernel';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';

export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const ORGANIZATION_USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other',
] as const;

export class CreateOrganizationRequest {
  @ApiProperty({ minLength: 2, maxLength: 255 })
  @IsString()
  @Length(2, 255)
  @Matches(/\S.*\S/, { message: 'title must not be blank' })
  title!: string;

  @ApiPropertyOptional({ type: [String], description: 'Email domains whose users may join' })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  emailDomains?: string[];

  @ApiPropertyOptional({ enum: ORGANIZATION_TYPES })
  @OptionalField()
  @IsIn(ORGANIZATION_TYPES)
  type?: (typeof ORGANIZATION_TYPES)[number];

  @ApiPropertyOptional({ enum: ORGANIZATION_USE_CASES })
  @OptionalField()
  @IsIn(ORGANIZATION_USE_CASES)
  useCase?: (typeof ORGANIZATION_USE_CASES)[number];
}
