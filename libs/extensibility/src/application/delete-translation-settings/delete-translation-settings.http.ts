import { Controller, Delete, Headers, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime, parseIfMatch } from '@app/kernel';
import { ChangeTranslationSettingsCommand } from '../change-translation-settings/change-translation-settings.command';
import { TRANSLATION_READ_MODELS } from '../read-models';

@ApiTags('translations')
@Controller()
export class DeleteTranslationSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('orgs/:organizationId/translations/:translationSettingsId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteTranslation',
    summary: 'Delete translation settings (admin); settings already deleted are 204 too',
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationSettingsId') translationSettingsId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    const result = await this.commands.execute(
      new ChangeTranslationSettingsCommand(
        actor.userId,
        { type: 'DeleteTranslationSettings', data: { translationSettingsId, organizationId } },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, TRANSLATION_READ_MODELS);
  }
}
