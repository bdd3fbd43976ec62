import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, ValidateIf } from 'class-validator';

/** The spec's `{organization}`, with an optional target collection (the seed: "organization, collection or both"). */
export class TransferSpaceRequest {
  @ApiProperty({ description: 'ID of the target organization (the current one to move between collections)' })
  @IsString()
  @Length(1, 100)
  organization!: string;

  @ApiPropertyOptional({
    nullable: true,
    description: 'ID of a collection of the target organization; default the top level',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsString()
  @Length(1, 100)
  parent?: string | null;
}
