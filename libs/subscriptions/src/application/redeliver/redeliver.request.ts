import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';

export class RedeliverRequest {
  @ApiProperty({
    oneOf: [
      { type: 'string', pattern: '^(0|[1-9][0-9]*)$' },
      { type: 'integer', minimum: 0 },
    ],
    description: 'Send again every event after this position (an event `position`; 0 is the beginning)',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value,
  )
  @IsString({ message: 'after must be a position (a whole number, 0 or more)' })
  after!: string;
}
