import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { PATH_MAX } from '../../domain';
import { CONDITION_MAX } from '../condition';

export class UpdateSiteSpaceRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: PATH_MAX, description: 'Unique within its section' })
  @OptionalField()
  @IsString()
  @Length(1, PATH_MAX)
  path?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: CONDITION_MAX,
    description: 'When visitors see it, over their claims (visitor.claims.…); null removes it, left out keeps it',
  })
  @IsOptional()
  @IsString()
  condition?: string | null;
}
