import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsString } from 'class-validator';
import { documentToMarkdown } from '@app/documents';
import { OptionalField, ValidationFailed } from '@app/kernel';
import { COMMENT_BODY_MAX, REACTIONS_PER_REQUEST_MAX } from '../domain';
import { BODY_FORMATS, type BodyFormat } from './comment-presenters';

const BODY_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: false,
  description:
    `Either {markdown} or {document} (a JSON document, stored as markdown); at most ${COMMENT_BODY_MAX} ` +
    'characters of markdown. An empty body is refused.',
  properties: {
    markdown: { type: 'string', maxLength: COMMENT_BODY_MAX, minLength: 1 },
    document: { type: 'object', additionalProperties: true, description: 'A JSON document (object "document")' },
  },
};

/** A required `body` (comment or reply). */
export const RequiredBody = () => applyDecorators(ApiProperty(BODY_SCHEMA), IsObject());
/** An optional `body` that changes the words. */
export const OptionalBody = () => applyDecorators(ApiPropertyOptional(BODY_SCHEMA), OptionalField(), IsObject());

/** `addedReactions` / `removedReactions`: emoji, checked one by one by the decider. */
export const Reactions = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: REACTIONS_PER_REQUEST_MAX, description: 'Emoji, such as 👍' }),
    OptionalField(),
    IsArray(),
    ArrayMaxSize(REACTIONS_PER_REQUEST_MAX),
    IsString({ each: true }),
  );

/** The markdown of a body given as {markdown} or {document}; anything else, `{}` included, is refused. */
export function markdownOfBody(body: Record<string, unknown>, field = 'body'): string {
  const keys = Object.keys(body);
  if (keys.length === 0) throw new ValidationFailed(`${field} must not be empty: give {markdown} or {document}`);
  if (keys.length > 1) throw new ValidationFailed(`${field} must hold either markdown or document, not both`);
  if ('markdown' in body) {
    if (typeof body.markdown !== 'string') throw new ValidationFailed(`${field}.markdown must be a string`);
    return body.markdown;
  }
  if ('document' in body) return documentToMarkdown(body.document, `${field}.document`);
  throw new ValidationFailed(`${field}.${keys[0]}: unknown field (give {markdown} or {document})`);
}

/** `format` of a comment or reply answer. */
export class FormatParams {
  @ApiPropertyOptional({ enum: BODY_FORMATS, description: 'The form of the bodies; markdown when none is given' })
  @OptionalField()
  @IsIn(BODY_FORMATS)
  format?: BodyFormat;
}
