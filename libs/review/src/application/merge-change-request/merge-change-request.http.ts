import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { REVISION_READ_MODELS } from '@app/content';
import { REVIEW_READ_MODELS } from '../read-models';
import { MergeChangeRequestCommand } from './merge-change-request.command';

@ApiTags('change-requests')
@Controller()
export class MergeChangeRequestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('spaces/:spaceId/change-requests/:changeRequestId/merge')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mergeChangeRequest',
    summary:
      'Merge a change request into its space (review role). With result "conflicts" the merge is applied, the ' +
      "change request's side winning, and `conflicts` lists the pages to review.",
  })
  async merge(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
  ) {
    const answer = await this.commands.execute(
      new MergeChangeRequestCommand(spaceId, changeRequestId, actor.userId, actor.requestId),
    );
    await this.runtime.settle(answer.position, [...REVIEW_READ_MODELS, ...REVISION_READ_MODELS]);
    return { revision: answer.revision, result: answer.result, conflicts: answer.conflicts };
  }
}
