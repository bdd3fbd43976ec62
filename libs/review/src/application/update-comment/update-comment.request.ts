import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { OptionalBody, Reactions } from '../comment-body';

export class UpdateCommentRequest {
  @ApiPropertyOptional({ description: 'true resolves the comment, false reopens it' })
  @OptionalField()
  @IsBoolean()
  resolved?: boolean;

  @OptionalBody()
  body?: Record<string, unknown>;

  @Reactions()
  addedReactions?: string[];

  @Reactions()
  removedReactions?: string[];
}
