import { OptionalField } from '@app/kernel';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class CreateApiTokenRequest {
  @ApiPropertyOptional({ description: 'A name to recognise the token by', maxLength: 50 })
  @OptionalField()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  label?: string;
}
