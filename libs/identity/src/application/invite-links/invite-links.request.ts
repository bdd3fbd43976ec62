import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { ROLES, type Role, type RoleOrGuest } from '@app/kernel/domain';

const ROLE_MESSAGE = 'must be one of admin, create, review, edit, comment, read';

/** The spec's `CreateOrganizationInvite`: `{role}`, or `{level, space}`, or `{level, collection}`. */
export class CreateInviteLinkRequest {
  @ApiPropertyOptional({ enum: ROLES, nullable: true, description: 'Role in the organization (null: guest)' })
  @ValidateIf((_object, value) => value !== null && value !== undefined)
  @IsIn(ROLES, { message: `role ${ROLE_MESSAGE} or null` })
  role?: RoleOrGuest;

  @ApiPropertyOptional({ enum: ROLES, description: 'Level on the space or collection' })
  @OptionalField()
  @IsIn(ROLES, { message: `level ${ROLE_MESSAGE}` })
  level?: Role;

  @ApiPropertyOptional({ description: 'A space of the organization' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  space?: string;

  @ApiPropertyOptional({ description: 'A collection of the organization' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  collection?: string;
}

/** `{role}` for a link to the organization, `{level}` for a link to a space or collection. */
export class UpdateInviteLinkRequest {
  @ApiPropertyOptional({ enum: ROLES, nullable: true, description: 'New role (links to the organization)' })
  @ValidateIf((_object, value) => value !== null && value !== undefined)
  @IsIn(ROLES, { message: `role ${ROLE_MESSAGE} or null` })
  role?: RoleOrGuest;

  @ApiPropertyOptional({ enum: ROLES, description: 'New level (links to a space or collection)' })
  @OptionalField()
  @IsIn(ROLES, { message: `level ${ROLE_MESSAGE}` })
  level?: Role;
}
