import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn, IsObject, IsString } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { INSTALLATION_SELECTIONS, INTEGRATION_LIMITS, type InstallationSelection } from '../../domain';

/** The spec's PATCH body; `configuration` is checked against the integration's account configuration. */
export class UpdateInstallationRequest {
  @ApiPropertyOptional({ type: [String], maxItems: INTEGRATION_LIMITS.externalIds })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  externalIds?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  configuration?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: INSTALLATION_SELECTIONS })
  @OptionalField()
  @IsIn(INSTALLATION_SELECTIONS)
  space_selection?: InstallationSelection;

  @ApiPropertyOptional({ enum: INSTALLATION_SELECTIONS })
  @OptionalField()
  @IsIn(INSTALLATION_SELECTIONS)
  site_selection?: InstallationSelection;
}
