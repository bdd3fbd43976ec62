import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Matches, MaxLength } from 'class-validator';
import { ListQuery, OptionalField } from '@app/kernel';

export const TYPES_MAX = 200;
/** A position as clients write it: a decimal number (`0` is the beginning). */
export const POSITION = /^[0-9]{1,40}$/;

/** `types=a&types=b` and `types=a,b` both give [a, b]. */
const listOfTypes = ({ value }: { value: unknown }) => {
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((one) => typeof one === 'string')) return value;
  return (values as string[])
    .flatMap((one) => one.split(','))
    .map((one) => one.trim())
    .filter((one) => one.length > 0);
};

export class FeedParams extends ListQuery {
  @ApiPropertyOptional({
    description:
      "Return the events after this position (exclusive): an event's `position`, or a page's `next.page`; `0` is " +
      'the beginning. JSON: from the beginning when omitted. Stream: `Last-Event-ID` wins; live when neither is given.',
    pattern: POSITION.source,
  })
  @OptionalField()
  @IsString()
  @Matches(POSITION, { message: 'after: must be a position (a decimal number; 0 is the beginning)' })
  after?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: TYPES_MAX,
    description: 'Only events of these types (see GET /v1/events/schemas): a repeated parameter or a comma list',
  })
  @OptionalField()
  @Transform(listOfTypes)
  @IsArray()
  @ArrayMaxSize(TYPES_MAX)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  types?: string[];
}
