import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class GroupSectionRequest {
  @ApiProperty({ description: 'ID of a section of this site; it joins the end of the group' })
  @IsString()
  @Length(1, 100)
  sectionId!: string;
}
