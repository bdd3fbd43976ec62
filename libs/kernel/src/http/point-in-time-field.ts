import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches, MaxLength } from 'class-validator';
import { ISO_TIME_TEXT, POSITION_TEXT } from '../runtime/point-in-time';
import { OptionalField } from './optional-field';

/** The `at` query parameter of the GET of a resource with history: a position or an ISO 8601 date-time. */
export const PointInTimeField = () =>
  applyDecorators(
    ApiPropertyOptional({
      description:
        'Answer the resource as it was then: a position from the event feed or history (that event included), ' +
        'or an ISO 8601 date-time with a time zone',
      example: '2026-11-01T12:00:00Z',
    }),
    OptionalField(),
    MaxLength(40),
    Matches(new RegExp(`^(?:${POSITION_TEXT.source}|${ISO_TIME_TEXT.source})$`), {
      message: 'at must be a position (digits) or an ISO 8601 date-time with a time zone',
    }),
  );

/** Query parameters of the GET of a resource that keeps its history. */
export class PointInTimeParams {
  @PointInTimeField()
  at?: string;
}
