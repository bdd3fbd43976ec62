import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type Actor, CurrentActor, Runtime, etagOf, newId } from '@app/kernel';
import { ChangeTranslationSettingsCommand } from '../change-translation-settings/change-translation-settings.command';
import {
  GetTranslationSettingsQuery,
  type TranslationSettingsView,
} from '../get-translation-settings/get-translation-settings.query';
import { TRANSLATION_READ_MODELS } from '../read-models';
import { TranslationSettingsRequest } from './create-translation-settings.request';

@ApiTags('translations')
@Controller()
export class CreateTranslationSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('orgs/:organizationId/translations')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createTranslation', summary: 'Create translation settings (admin)' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: TranslationSettingsRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const translationSettingsId = newId();
    const result = await this.commands.execute(
      new ChangeTranslationSettingsCommand(
        actor.userId,
        {
          type: 'CreateTranslationSettings',
          data: { translationSettingsId, organizationId, title: body.title, languages: body.languages },
        },
        actor.requestId,
      ),
    );
    await this.runtime.settle(result.position, TRANSLATION_READ_MODELS);
    const view: TranslationSettingsView = await this.queries.execute(
      new GetTranslationSettingsQuery(organizationId, translationSettingsId, actor.userId),
    );
    void reply.header('etag', etagOf(view.version));
    void reply.header('location', view.body.urls.location);
    return view.body;
  }
}
