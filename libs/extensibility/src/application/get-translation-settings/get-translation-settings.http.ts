import { Controller, Get, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, etagOf } from '@app/kernel';
import { GetTranslationSettingsQuery, type TranslationSettingsView } from './get-translation-settings.query';

@ApiTags('translations')
@Controller()
export class GetTranslationSettingsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/translations/:translationSettingsId')
  @ApiOperation({ operationId: 'getTranslation', summary: 'Read translation settings (member)' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationSettingsId') translationSettingsId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const view: TranslationSettingsView = await this.queries.execute(
      new GetTranslationSettingsQuery(organizationId, translationSettingsId, actor.userId),
    );
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
