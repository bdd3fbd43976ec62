import { Controller, Delete, Headers, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime, parseIfMatch } from '@app/kernel';
import { ChangeOpenAPISpecCommand } from '../change-openapi-spec/change-openapi-spec.command';
import { OPENAPI_READ_MODELS } from '../openapi-read-models';

@ApiTags('openapi')
@Controller()
export class DeleteOpenAPISpecController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('orgs/:organizationId/openapi/:specSlug')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteOpenAPISpecBySlug',
    summary: 'Delete an OpenAPI spec and its versions (admin); a spec already deleted is 204 too',
  })
  @ApiHeader({ name: 'If-Match', required: false, description: 'ETag of the revision the change is based on' })
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    const result = await this.commands.execute(
      new ChangeOpenAPISpecCommand(
        actor.userId,
        { type: 'DeleteOpenAPISpec', organizationId, slug },
        actor.requestId,
        parseIfMatch(ifMatch),
      ),
    );
    await this.runtime.settle(result.position, OPENAPI_READ_MODELS);
  }
}
