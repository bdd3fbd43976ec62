import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { COMMENT_READ_MODELS } from '../read-models';
import { DeleteReplyCommand } from './delete-reply.command';

@ApiTags('comments')
@Controller()
export class DeleteReplyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('spaces/:spaceId/comments/:commentId/replies/:commentReplyId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteCommentReplyInSpace', summary: 'Delete a reply (its author or a space admin)' })
  async inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
  ) {
    await this.delete(actor, spaceId, undefined, commentId, replyId);
  }

  @Delete('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCommentReplyInChangeRequest',
    summary: 'Delete a reply to a comment on a change request (its author or a space admin; beyond the seed)',
  })
  async inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
  ) {
    await this.delete(actor, spaceId, changeRequestId, commentId, replyId);
  }

  private async delete(
    actor: Actor,
    spaceId: string,
    changeRequestId: string | undefined,
    commentId: string,
    replyId: string,
  ) {
    const result = await this.commands.execute(
      new DeleteReplyCommand(spaceId, changeRequestId, commentId, replyId, actor.userId, actor.requestId),
    );
    await this.runtime.settle(result.position, COMMENT_READ_MODELS);
  }
}
