import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { OPENAPI_LIMITS } from '../../domain';

// the schema of a oneOf, given to Swagger as is
const SOURCE_SCHEMA = {
  description: 'Where the document comes from: `{url}` (fetched by the service) or `{text}` (the document itself)',
  oneOf: [
    {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri', maxLength: OPENAPI_LIMITS.url } },
      required: ['url'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 } },
      required: ['text'],
      additionalProperties: false,
    },
  ],
} as unknown as ApiPropertyOptions;

/** Presence and types here; the slug pattern and the shape of `source` are checked by the domain, naming the field. */
export class CreateOpenAPISpecRequest {
  @ApiProperty({ minLength: 1, maxLength: OPENAPI_LIMITS.slug, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' })
  @IsString()
  slug!: string;

  @ApiProperty(SOURCE_SCHEMA)
  @IsDefined()
  source!: unknown;
}

export class PutOpenAPISpecRequest {
  @ApiProperty(SOURCE_SCHEMA)
  @IsDefined()
  source!: unknown;
}
