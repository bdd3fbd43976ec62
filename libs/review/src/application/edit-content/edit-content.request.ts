import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject } from 'class-validator';
import { QueryFlag } from '@app/kernel';
import { MAX_CHANGES } from './content-changes';

export class EditContentRequest {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: MAX_CHANGES,
    items: { type: 'object', additionalProperties: true },
    description:
      'Changes applied in order, all or nothing, as one new revision: insert_page, update_page, delete_page, ' +
      'revert_page, insert_files (base64). Page bodies are given as {markdown}.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHANGES)
  @IsObject({ each: true })
  changes!: Record<string, unknown>[];
}

export class EditContentParams {
  @ApiPropertyOptional({ description: 'true: answer the change request; false: also the affected pages and files' })
  @QueryFlag(true)
  compat?: boolean;
}
