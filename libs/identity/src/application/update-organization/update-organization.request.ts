import { OptionalField } from '@app/kernel';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ROLES } from '@app/kernel/domain';

export class DefaultContentRequest {
  @ApiPropertyOptional({ enum: ['site'] })
  @IsIn(['site'])
  type!: 'site';

  @ApiPropertyOptional()
  @IsString()
  @Length(1, 100)
  site!: string;
}

/** Every field is optional; `null` clears `defaultRole` (guests), `defaultContent` and `logo`. */
export class UpdateOrganizationRequest {
  @ApiPropertyOptional({ minLength: 2, maxLength: 255 })
  @OptionalField()
  @IsString()
  @Length(2, 255)
  @Matches(/\S.*\S/, { message: 'title must not be blank' })
  title?: string;

  @ApiPropertyOptional({ type: [String] })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  emailDomains?: string[];

  @ApiPropertyOptional({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' })
  @OptionalField()
  @IsString()
  @Length(3, 32)
  @Matches(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/, { message: 'hostname must be lowercase letters, digits and dashes' })
  hostname?: string;

  @ApiPropertyOptional({ enum: ROLES, nullable: true })
  @IsOptional()
  @IsIn(ROLES)
  defaultRole?: (typeof ROLES)[number] | null;

  @ApiPropertyOptional({ type: DefaultContentRequest, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DefaultContentRequest)
  defaultContent?: DefaultContentRequest | null;

  @ApiPropertyOptional({ nullable: true, maxLength: 2048, description: 'URL of the logo' })
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2048)
  logo?: string | null;

  @ApiPropertyOptional()
  @OptionalField()
  @IsBoolean()
  sso?: boolean;

  @ApiPropertyOptional()
  @OptionalField()
  @IsBoolean()
  ai?: boolean;

  @ApiPropertyOptional()
  @OptionalField()
  @IsBoolean()
  inviteLinks?: boolean;
}
