import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { WEBHOOK_LIMITS } from '../../domain/webhook.decider';

/** Fields left out keep their value. */
export class UpdateWebhookRequest {
  @ApiPropertyOptional({ maxLength: WEBHOOK_LIMITS.url })
  @OptionalField()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ type: [String], maxItems: WEBHOOK_LIMITS.types, description: 'Empty: every type' })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_LIMITS.types)
  @IsString({ each: true })
  @MaxLength(WEBHOOK_LIMITS.type, { each: true })
  types?: string[];

  @ApiPropertyOptional({ description: 'false stops deliveries; true resumes them at once where they stopped' })
  @OptionalField()
  @IsBoolean()
  active?: boolean;
}
