import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { RequiredBody } from '../comment-body';

export class PostCommentRequest {
  @RequiredBody()
  body!: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'The page the comment is about; it must be in the current content' })
  @OptionalField()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  page?: string;

  @ApiPropertyOptional({ description: 'The block of the page the comment is about (only with page), kept as given' })
  @OptionalField()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  node?: string;
}
