import { Body, Controller, Headers, Param, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, parseIfMatch } from '@app/kernel';
import { ChangeTranslationSettingsCommand } from '../change-translation-settings/change-translation-settings.command';
import { TranslationSettingsRequest } from '../create-translation-settings/create-translation-settings.request';
import {
  GetTranslationSettingsQuery,
  type TranslationSettingsView,
} from '../get-translation-settings/get-translation-settings.query';
import { TRANSLATION_READ_MODELS } from '../read-models';

@ApiTags('translations')
@Controller()
export class ReplaceTranslationSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Put('orgs/:organizationId/translations/:translationSettingsId')
  @ApiOperation({
    operationId: 'updateTranslation',
    summary: 'Replace the title (and, when given, the languages) of translation settings (admin)',
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async replace(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationSettingsId') translationSettingsId: string,
    @Body() body: TranslationSettingsRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new ChangeTranslationSettingsCommand(
        actor.userId,
        {
          type: 'ReplaceTranslationSettings',
          data: { translationSettingsId, organizationId, title: body.title, languages: body.languages },
        },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, TRANSLATION_READ_MODELS);
    const view: TranslationSettingsView = await this.queries.execute(
      new GetTranslationSettingsQuery(organizationId, translationSettingsId, actor.userId),
    );
    void reply.header('etag', etagOf(view.version));
    return view.body;
  }
}
