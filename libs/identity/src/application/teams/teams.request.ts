import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsString, Length, MaxLength, registerDecorator } from 'class-validator';
import { ListQuery, OptionalField } from '@app/kernel';
import { TEAM_MEMBER_ROLES, TEAM_TITLE_MAX, type TeamMemberRole } from '../../domain';

const MAX_MEMBERS_PER_CHANGE = 1000;

export class CreateTeamRequest {
  @ApiProperty({ minLength: 1, maxLength: TEAM_TITLE_MAX })
  @IsString()
  @Length(1, TEAM_TITLE_MAX)
  title!: string;

  @ApiPropertyOptional({ type: [String], description: 'Ids of organization members (guests included)' })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_CHANGE)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  members?: string[];
}

export class RenameTeamRequest {
  @ApiProperty({ minLength: 1, maxLength: TEAM_TITLE_MAX })
  @IsString()
  @Length(1, TEAM_TITLE_MAX)
  title!: string;
}

export class TeamMembershipRequest {
  @ApiPropertyOptional({ enum: TEAM_MEMBER_ROLES, description: 'Role in the team (default: member)' })
  @OptionalField()
  @IsIn(TEAM_MEMBER_ROLES)
  role?: TeamMemberRole;
}

/** Every value of an object is a valid team membership `{role}`. */
function EachMembership() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'eachMembership',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must map user ids to {role: "owner" | "member"}` },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value as Record<string, unknown>);
          if (entries.length > MAX_MEMBERS_PER_CHANGE) return false;
          return entries.every(([, membership]) => {
            if (typeof membership !== 'object' || membership === null) return false;
            const keys = Object.keys(membership);
            const role = (membership as { role?: unknown }).role;
            return keys.every((key) => key === 'role') && TEAM_MEMBER_ROLES.includes(role as TeamMemberRole);
          });
        },
      },
    });
}

export class ChangeTeamMembersRequest {
  @ApiPropertyOptional({ type: [String], description: 'Members to add: user ids or emails' })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_CHANGE)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  add?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Members to remove: user ids or emails' })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_CHANGE)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  remove?: string[];

  @ApiPropertyOptional({ description: 'Role in the team by user id (adds those not yet in it)' })
  @OptionalField()
  @IsObject()
  @EachMembership()
  memberships?: Record<string, { role: TeamMemberRole }>;
}

export class ListTeamsParams extends ListQuery {
  @ApiPropertyOptional({ description: 'A member id: only the teams they can manage' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  owner?: string;

  @ApiPropertyOptional({ description: 'Only teams whose title contains this (case-insensitive)' })
  @OptionalField()
  @IsString()
  @MaxLength(TEAM_TITLE_MAX)
  title?: string;
}

export class ListMemberTeamsParams extends ListQuery {
  @ApiPropertyOptional({ description: 'Only teams whose title contains this (case-insensitive)' })
  @OptionalField()
  @IsString()
  @MaxLength(TEAM_TITLE_MAX)
  title?: string;
}
