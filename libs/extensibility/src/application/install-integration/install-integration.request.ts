import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class InstallIntegrationRequest {
  @ApiProperty({ description: 'ID of the organization to install the integration in (the caller must be its admin)' })
  @IsString()
  @MaxLength(100)
  organization!: string;
}
