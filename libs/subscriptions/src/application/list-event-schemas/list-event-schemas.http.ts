import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type JsonSchema, PUBLIC_EVENT_MAPPERS, type PublicEventMapper, publicEventSchema } from '@app/kernel';

export interface EventSchemaBody {
  type: string;
  version: number;
  description: string;
  subject: string;
  schema: JsonSchema;
}

@ApiTags('events')
@Controller()
export class ListEventSchemasController {
  constructor(@Inject(PUBLIC_EVENT_MAPPERS) private readonly mappers: readonly PublicEventMapper[]) {}

  @Get('events/schemas')
  @ApiOperation({
    operationId: 'listPublicEventSchemas',
    summary:
      'Every kind of public event, with the JSON Schema (draft-07) of the whole event, sorted by type (beyond the ' +
      'spec; any signed-in caller)',
  })
  list(): { items: EventSchemaBody[] } {
    const items = this.mappers
      .flatMap((mapper) => mapper.kinds)
      .map((kind) => ({
        type: kind.type,
        version: kind.version,
        description: kind.description,
        subject: kind.subject,
        schema: publicEventSchema(kind),
      }))
      .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    return { items };
  }
}
