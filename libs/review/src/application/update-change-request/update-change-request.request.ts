import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { SETTABLE_STATUSES, SUBJECT_MAX, type SettableStatus } from '../../domain';

export class UpdateChangeRequestRequest {
  @ApiPropertyOptional({ maxLength: SUBJECT_MAX })
  @OptionalField()
  @IsString()
  @MaxLength(SUBJECT_MAX * 2) // counted in characters by the decider; this bounds the UTF-16 length first
  subject?: string;

  @ApiPropertyOptional({ enum: SETTABLE_STATUSES, description: 'Only a merge makes a change request merged' })
  @OptionalField()
  @IsIn(SETTABLE_STATUSES)
  status?: SettableStatus;
}
