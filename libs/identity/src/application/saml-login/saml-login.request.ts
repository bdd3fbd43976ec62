import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalField } from '@app/kernel';

/** The IdP's HTTP-POST binding form. */
export class AssertionConsumerRequest {
  @ApiProperty({ description: 'The base64-encoded SAML Response' })
  @IsString()
  @MinLength(1)
  @MaxLength(512 * 1024)
  SAMLResponse!: string;

  @ApiPropertyOptional({ description: 'Sent back as the IdP received it; not used by this service' })
  @OptionalField()
  @IsString()
  @MaxLength(1024)
  RelayState?: string;
}
