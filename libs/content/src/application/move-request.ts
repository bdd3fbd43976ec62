import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Length, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalField } from '@app/kernel';

export class ContentPointerRequest {
  @ApiProperty({ enum: ['space', 'collection'] })
  @IsIn(['space', 'collection'])
  type!: 'space' | 'collection';

  @ApiPropertyOptional({ description: 'ID of the space (when type is space)' })
  @ValidateIf((pointer: ContentPointerRequest) => pointer.type === 'space')
  @IsString()
  @Length(1, 100)
  space?: string;

  @ApiPropertyOptional({ description: 'ID of the collection (when type is collection)' })
  @ValidateIf((pointer: ContentPointerRequest) => pointer.type === 'collection')
  @IsString()
  @Length(1, 100)
  collection?: string;
}

export class ContentPositionRequest {
  @ApiPropertyOptional({ type: ContentPointerRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPointerRequest)
  before?: ContentPointerRequest;

  @ApiPropertyOptional({ type: ContentPointerRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPointerRequest)
  after?: ContentPointerRequest;
}

/** Body of the move endpoints: a new parent (null: the top level) and/or a position among its items. */
export class MoveRequest {
  @ApiPropertyOptional({ nullable: true, description: 'ID of the new parent collection, or null for the top level' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsString()
  @Length(1, 100)
  parent?: string | null;

  @ApiPropertyOptional({ type: ContentPositionRequest, description: 'Where to put it; at the end by default' })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPositionRequest)
  position?: ContentPositionRequest;
}

/** Body of the transfer endpoints. */
export class TransferRequest {
  @ApiProperty({ description: 'ID of the organization to transfer to' })
  @IsString()
  @Length(1, 100)
  organization!: string;
}
