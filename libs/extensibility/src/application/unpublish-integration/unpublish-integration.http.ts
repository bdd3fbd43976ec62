import { Controller, Delete, Headers, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime, parseIfMatch } from '@app/kernel';
import { ChangeIntegrationCommand } from '../change-integration/change-integration.command';
import { INTEGRATION_READ_MODELS } from '../integration-read-models';

@ApiTags('integrations')
@Controller()
export class UnpublishIntegrationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('integrations/:integrationName')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'unpublishIntegration',
    summary: "Unpublish an integration (owner's admins); its installations end. Already unpublished: 204",
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async unpublish(
    @CurrentActor() actor: Actor,
    @Param('integrationName') name: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    const result = await this.commands.execute(
      new ChangeIntegrationCommand(
        actor.userId,
        { type: 'UnpublishIntegration', data: { name } },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, INTEGRATION_READ_MODELS);
  }
}
