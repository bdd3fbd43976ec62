import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { FormatParams } from '../comment-body';
import { GetCommentQuery } from './get-comment.query';

@ApiTags('comments')
@Controller()
export class GetCommentController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/comments/:commentId')
  @ApiOperation({ operationId: 'getCommentInSpace', summary: 'A comment on a space' })
  inSpace(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('commentId') commentId: string,
    @Query() params: FormatParams,
  ) {
    return this.queries.execute(new GetCommentQuery(spaceId, undefined, commentId, actor.userId, params.format));
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId')
  @ApiOperation({ operationId: 'getCommentInChangeRequest', summary: 'A comment on a change request' })
  inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Query() params: FormatParams,
  ) {
    return this.queries.execute(new GetCommentQuery(spaceId, changeRequestId, commentId, actor.userId, params.format));
  }
}
