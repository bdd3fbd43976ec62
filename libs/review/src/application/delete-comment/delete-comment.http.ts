import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { COMMENT_READ_MODELS } from '../read-models';
import { DeleteCommentCommand } from './delete-comment.command';

@ApiTags('comments')
@Controller()
export class DeleteCommentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('spaces/:spaceId/comments/:commentId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCommentInSpace',
    summary: 'Delete a comment on a space and its replies (its author or a space admin)',
  })
  async inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
  ) {
    await this.delete(actor, spaceId, undefined, commentId);
  }

  @Delete('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCommentInChangeRequest',
    summary: 'Delete a comment on a change request and its replies (its author or a space admin)',
  })
  async inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
  ) {
    await this.delete(actor, spaceId, changeRequestId, commentId);
  }

  private async delete(actor: Actor, spaceId: string, changeRequestId: string | undefined, commentId: string) {
    const result = await this.commands.execute(
      new DeleteCommentCommand(spaceId, changeRequestId, commentId, actor.userId, actor.requestId),
    );
    await this.runtime.settle(result.position, COMMENT_READ_MODELS);
  }
}
