import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { SUBJECT_MAX } from '../../domain';

export class CreateChangeRequestRequest {
  @ApiPropertyOptional({ maxLength: SUBJECT_MAX, description: 'Subject of the change request' })
  @OptionalField()
  @IsString()
  @MaxLength(SUBJECT_MAX * 2) // counted in characters by the decider; this bounds the UTF-16 length first
  subject?: string;
}
