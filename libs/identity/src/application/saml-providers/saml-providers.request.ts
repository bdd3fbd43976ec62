import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUrl, MaxLength, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { ROLES, type RoleOrGuest } from '@app/kernel/domain';

const URL_OPTIONS = { require_tld: false, protocols: ['http', 'https'], require_protocol: true };

/**
 * Length limits are checked in code points by the decider; the caps here only bound what is read. An empty
 * `entityID`, `certificate` or `ssoURL` in a change clears it (the provider goes back to pending).
 */
class SamlProviderFields {
  @ApiPropertyOptional({ maxLength: 1024, description: "The IdP's entity id (the Issuer of its assertions)" })
  @OptionalField()
  @IsString()
  @MaxLength(4096)
  entityID?: string;

  @ApiPropertyOptional({ maxLength: 10000, description: "The IdP's signing certificate (X.509, PEM or base64)" })
  @OptionalField()
  @IsString()
  @MaxLength(40000)
  certificate?: string;

  @ApiPropertyOptional({ maxLength: 2048, description: "The IdP's single sign-on URL (HTTP-Redirect binding)" })
  @OptionalField()
  @IsString()
  @ValidateIf((_object, value) => value !== '')
  @IsUrl(URL_OPTIONS, { message: 'ssoURL must be an http(s) URL' })
  @MaxLength(8192)
  ssoURL?: string;

  @ApiPropertyOptional({ description: 'A team of the organization that people signing in for the first time join' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  defaultTeam?: string;

  @ApiPropertyOptional({ enum: ROLES, nullable: true, description: 'Role of people signing in for the first time' })
  @ValidateIf((_object, value) => value !== null && value !== undefined)
  @IsIn(ROLES, { message: 'defaultRole must be one of admin, create, review, edit, comment, read or null' })
  defaultRole?: RoleOrGuest;
}

export class CreateSamlProviderRequest extends SamlProviderFields {
  @ApiProperty({ minLength: 1, maxLength: 30 })
  @IsString()
  @MaxLength(120)
  label!: string;
}

export class UpdateSamlProviderRequest extends SamlProviderFields {
  @ApiPropertyOptional({ minLength: 1, maxLength: 30 })
  @OptionalField()
  @IsString()
  @MaxLength(120)
  label?: string;
}
