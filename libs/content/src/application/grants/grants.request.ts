import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { ROLES, type Role } from '@app/kernel/domain';
import { MAX_GRANTEES } from '../../domain';

/** `InviteUsersAndTeams` of the spec: users and/or teams, and the role they get. */
export class InviteUsersAndTeamsRequest {
  @ApiProperty({ enum: ROLES, description: 'The role to give (a guest level, null, gives nothing: 400)' })
  @IsIn(ROLES, { message: 'role must be one of admin, create, review, edit, comment, read' })
  role!: Role;

  @ApiPropertyOptional({ type: [String], description: 'Ids of members of the organization (guests included)' })
  @ValidateIf((request: InviteUsersAndTeamsRequest, value) => value !== undefined || request.teams === undefined)
  @IsArray({ message: 'give users or teams (or both)' })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_GRANTEES)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  users?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Ids of teams of the organization' })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_GRANTEES)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  teams?: string[];
}

export class UpdateGrantRequest {
  @ApiProperty({ enum: ROLES, description: 'The new role (DELETE takes the access away)' })
  @IsIn(ROLES, { message: 'role must be one of admin, create, review, edit, comment, read' })
  role!: Role;
}
