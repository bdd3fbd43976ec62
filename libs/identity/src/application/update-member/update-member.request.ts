import { ApiProperty } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { ROLES, type RoleOrGuest } from '@app/kernel/domain';

export class UpdateMemberRequest {
  @ApiProperty({ enum: ROLES, nullable: true, description: 'New role (required); null makes the member a guest' })
  @ValidateIf((_object, value) => value !== null)
  @IsIn(ROLES)
  role!: RoleOrGuest;
}
