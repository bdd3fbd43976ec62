import { Global, Module } from '@nestjs/common';
import { RuntimeRegistry } from '@app/kernel';
import { CHANGE_REQUEST_LOOKUP, ContentModule, SPACE_ACTIVITY } from '@app/content';
import { IdentityModule } from '@app/identity';
import { reviewProjections } from './projections';
import { reviewPublicEvents } from './public/public-events';
import { mergeCompletionProcess } from './processes/merge-completion.process';
import { CreateChangeRequestHandler } from './application/create-change-request/create-change-request.command';
import { CreateChangeRequestController } from './application/create-change-request/create-change-request.http';
import { EditContentHandler } from './application/edit-content/edit-content.command';
import { EditContentController } from './application/edit-content/edit-content.http';
import { ExportPdfController } from './application/export-pdf/export-pdf.http';
import { ExportPdfHandler } from './application/export-pdf/export-pdf.query';
import { GetChangeRequestController } from './application/get-change-request/get-change-request.http';
import { GetChangeRequestHandler } from './application/get-change-request/get-change-request.query';
import { ListChangeRequestsController } from './application/list-change-requests/list-change-requests.http';
import { ListChangeRequestsHandler } from './application/list-change-requests/list-change-requests.query';
import { ChangeRequestMerges } from './application/merge-change-request/change-request-merges';
import { MergeChangeRequestHandler } from './application/merge-change-request/merge-change-request.command';
import { MergeChangeRequestController } from './application/merge-change-request/merge-change-request.http';
import { ReadChangeRequestContentController } from './application/read-change-request-content/read-change-request-content.http';
import { ReadChangeRequestContentHandler } from './application/read-change-request-content/read-change-request-content.query';
import { ReviewAccess } from './application/review-access';
import { ListCommentsController } from './application/list-comments/list-comments.http';
import { ListCommentsHandler } from './application/list-comments/list-comments.query';
import { GetCommentController } from './application/get-comment/get-comment.http';
import { GetCommentHandler } from './application/get-comment/get-comment.query';
import { PostCommentController } from './application/post-comment/post-comment.http';
import { PostCommentHandler } from './application/post-comment/post-comment.command';
import { UpdateCommentController } from './application/update-comment/update-comment.http';
import { UpdateCommentHandler } from './application/update-comment/update-comment.command';
import { DeleteCommentController } from './application/delete-comment/delete-comment.http';
import { DeleteCommentHandler } from './application/delete-comment/delete-comment.command';
import { ListRepliesController } from './application/list-replies/list-replies.http';
import { ListRepliesHandler } from './application/list-replies/list-replies.query';
import { GetReplyController } from './application/get-reply/get-reply.http';
import { GetReplyHandler } from './application/get-reply/get-reply.query';
import { PostReplyController } from './application/post-reply/post-reply.http';
import { PostReplyHandler } from './application/post-reply/post-reply.command';
import { UpdateReplyController } from './application/update-reply/update-reply.http';
import { UpdateReplyHandler } from './application/update-reply/update-reply.command';
import { DeleteReplyController } from './application/delete-reply/delete-reply.http';
import { DeleteReplyHandler } from './application/delete-reply/delete-reply.command';
import { CommentThreads } from './application/comment-threads';
import { ImportContentController } from './application/import-content/import-content.http';
import { ImportContentHandler } from './application/import-content/import-content.command';
import { ReviewChangeRequestLookup, ReviewSpaceActivity } from './application/space-activity.provider';
import { UpdateChangeRequestHandler } from './application/update-change-request/update-change-request.command';
import { UpdateChangeRequestController } from './application/update-change-request/update-change-request.http';
import { UpdateFromSpaceHandler } from './application/update-from-space/update-from-space.command';
import { UpdateFromSpaceController } from './application/update-from-space/update-from-space.http';
import { ChangeRequestHistoryController } from './application/change-request-history/change-request-history.http';
import { ChangeRequestHistoryHandler } from './application/change-request-history/change-request-history.query';

/**
 * Change requests (proposing changes to a space, writing their content, merging them with a three-way merge and
 * updating them from the space) and the comments, replies and reactions on spaces and change requests. Global so that the content context finds the space counters it shows.
 */
@Global()
@Module({
  imports: [IdentityModule, ContentModule],
  controllers: [
    ListChangeRequestsController,
    CreateChangeRequestController,
    GetChangeRequestController,
    ChangeRequestHistoryController,
    UpdateChangeRequestController,
    ReadChangeRequestContentController,
    EditContentController,
    MergeChangeRequestController,
    UpdateFromSpaceController,
    ExportPdfController,
    ImportContentController,
    ListCommentsController,
    GetCommentController,
    PostCommentController,
    UpdateCommentController,
    DeleteCommentController,
    ListRepliesController,
    GetReplyController,
    PostReplyController,
    UpdateReplyController,
    DeleteReplyController,
  ],
  providers: [
    ReviewAccess,
    ChangeRequestMerges,
    { provide: SPACE_ACTIVITY, useClass: ReviewSpaceActivity },
    { provide: CHANGE_REQUEST_LOOKUP, useClass: ReviewChangeRequestLookup },
    ListChangeRequestsHandler,
    CreateChangeRequestHandler,
    GetChangeRequestHandler,
    ChangeRequestHistoryHandler,
    UpdateChangeRequestHandler,
    ReadChangeRequestContentHandler,
    EditContentHandler,
    MergeChangeRequestHandler,
    UpdateFromSpaceHandler,
    ExportPdfHandler,
    ImportContentHandler,
    CommentThreads,
    ListCommentsHandler,
    GetCommentHandler,
    PostCommentHandler,
    UpdateCommentHandler,
    DeleteCommentHandler,
    ListRepliesHandler,
    GetReplyHandler,
    PostReplyHandler,
    UpdateReplyHandler,
    DeleteReplyHandler,
  ],
  exports: [SPACE_ACTIVITY, CHANGE_REQUEST_LOOKUP],
})
export class ReviewModule {
  constructor(registry: RuntimeRegistry, merges: ChangeRequestMerges) {
    registry.addProjections(...reviewProjections);
    registry.addPublicEventMappers(reviewPublicEvents);
    registry.addProcesses(mergeCompletionProcess);
    // Finishes a merge whose start is recorded; a merge already landed or abandoned is left alone.
    registry.handleProcessCommand('CompleteChangeRequestMerge', async (command) => {
      const data = command.data as { spaceId: string; revisionId: string; startedBy?: string };
      await merges.resume(data.spaceId, data.revisionId, {
        ...(data.startedBy ? { actor: data.startedBy } : {}),
        commandId: command.commandId,
        causationId: command.causationId,
        ...(command.correlationId ? { correlationId: command.correlationId } : {}),
      });
    });
  }
}
