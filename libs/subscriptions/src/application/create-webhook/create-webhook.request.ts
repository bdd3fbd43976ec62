import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { WEBHOOK_LIMITS } from '../../domain/webhook.decider';

export class CreateWebhookRequest {
  @ApiProperty({ maxLength: WEBHOOK_LIMITS.url, description: 'Where deliveries are POSTed: an https address' })
  @IsString()
  url!: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: WEBHOOK_LIMITS.types,
    description: 'Public event types to deliver (`space.created`, …); empty or left out: every type',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_LIMITS.types)
  @IsString({ each: true })
  @MaxLength(WEBHOOK_LIMITS.type, { each: true })
  types?: string[];

  @ApiPropertyOptional({ default: true, description: 'An inactive webhook sends nothing' })
  @OptionalField()
  @IsBoolean()
  active?: boolean;
}
