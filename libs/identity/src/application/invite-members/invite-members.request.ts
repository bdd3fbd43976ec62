import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsEmail, IsIn, ValidateIf } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { ROLES, type RoleOrGuest } from '@app/kernel/domain';

export class InviteMembersRequest {
  @ApiProperty({ type: [String], description: 'Email addresses to invite (1..100)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsEmail({}, { each: true })
  emails!: string[];

  @ApiPropertyOptional({ enum: ROLES, nullable: true, description: 'Role of the invited members (default read)' })
  @ValidateIf((_object, value) => value !== null && value !== undefined)
  @IsIn(ROLES)
  role?: RoleOrGuest;

  @ApiPropertyOptional({ description: 'Accepted for compatibility; SSO invitations are not supported yet' })
  @OptionalField()
  @IsBoolean()
  sso?: boolean;
}
